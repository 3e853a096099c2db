/** The use case of `rangeToCidrs`, bound to its ports: range-to-cidrs: a range as CIDRs (src/domain/cidr/range-to-cidrs.ts). */
import { rangeToCidrs } from "../../domain/cidr/range-to-cidrs.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"rangeToCidrs"> = () => (body) => rangeToCidrs(body.start, body.end);
