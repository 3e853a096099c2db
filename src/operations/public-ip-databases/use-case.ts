/** The use case of `publicIpDatabases`, bound to its ports: public-ip/databases: what the operator's GeoIP databases are (src/domain/public-ip.ts). */
import { describeAddressDatabases } from "../../domain/public-ip.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"publicIpDatabases"> =
  ({ networkFacts }) =>
  () =>
    describeAddressDatabases(networkFacts);
