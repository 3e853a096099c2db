/** The use case of `cidrCompare`, bound to its ports: compare: two lists, what each holds that the other does not (src/domain/cidr/compare.ts). */
import { compareCidrs } from "../../domain/cidr/compare.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrCompare"> =
  ({ limits: { lists } }) =>
  (body) =>
    compareCidrs(body.a, body.b, lists);
