/** The use case of `cidrCover`, bound to its ports: cover: the smallest list of CIDRs covering the inputs (src/domain/cidr/cover.ts). */
import { coverCidrs } from "../../domain/cidr/cover.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrCover"> =
  ({ limits: { cidr } }) =>
  (body) =>
    coverCidrs(body.inputs, cidr);
