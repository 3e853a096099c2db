/** The use case of `cidrContains`, bound to its ports: contains: which blocks hold each entry (src/domain/cidr/contains.ts); a block may carry a label. */
import { cidrsContain } from "../../domain/cidr/contains.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrContains"> =
  ({ limits: { lists } }) =>
  (body) =>
    cidrsContain(
      body.cidrs.map((block) => (typeof block === "string" ? block : block.cidr)),
      body.entries,
      lists,
      body.cidrs.map((block) => (typeof block === "string" ? null : block.label)),
    );
