/** The use case of `reverseZones`, bound to its ports: reverse-zones: the DNS reverse zones of a block (src/domain/cidr/reverse-zones.ts). */
import { reverseZones } from "../../domain/cidr/reverse-zones.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"reverseZones"> = () => (body) => reverseZones(body.cidr);
