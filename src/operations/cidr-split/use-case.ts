/** The use case of `cidrSplit`, bound to its ports: split: a block into subnets, a page at a time (src/domain/cidr/split.ts). */
import { splitCidr } from "../../domain/cidr/split.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrSplit"> =
  ({ limits: { lists } }) =>
  (body) =>
    splitCidr(body.cidr, body.prefixLength, lists, body);
