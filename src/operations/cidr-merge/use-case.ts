/** The use case of `cidrMerge`, bound to its ports: merge: IPv4 and IPv6 lists merged (src/domain/cidr/merge-mixed.ts). */
import { mergeMixedCidrs } from "../../domain/cidr/merge-mixed.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrMerge"> =
  ({ limits: { lists } }) =>
  (body) =>
    mergeMixedCidrs(body.inputs, lists, body);
