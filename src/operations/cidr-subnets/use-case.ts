/** The use case of `cidrSubnets`, bound to its ports: subnets: Terraform's cidrsubnets plan (src/domain/cidr/terraform-subnets.ts). */
import { cidrSubnets } from "../../domain/cidr/terraform-subnets.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrSubnets"> =
  ({ limits: { lists } }) =>
  (body) =>
    cidrSubnets(body, lists);
