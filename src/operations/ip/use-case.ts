/** The use case of `ip`, bound to its ports: ip: the client's address alone, as text (src/domain/public-ip.ts). */
import { observePublicIp } from "../../domain/public-ip.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"ip"> = () => (_, context) => observePublicIp(context.observeClient());
