/** The use case of `publicIp`, bound to its ports: public-ip: the client's address with the operator's network facts (src/domain/public-ip.ts). */
import { observePublicIp } from "../../domain/public-ip.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"publicIp"> =
  ({ networkFacts }) =>
  (_, context) =>
    observePublicIp(context.observeClient(), networkFacts);
