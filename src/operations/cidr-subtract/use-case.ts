/** The use case of `cidrSubtract`, bound to its ports: subtract: include minus exclude (src/domain/cidr/subtract.ts). */
import { subtractCidrs } from "../../domain/cidr/subtract.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrSubtract"> =
  ({ limits: { cidr } }) =>
  (body) =>
    subtractCidrs(body.include, body.exclude, cidr);
