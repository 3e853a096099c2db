/** The use case of `cidrUsage`, bound to its ports: usage: how much of a pool is used (src/domain/cidr/usage.ts). */
import { cidrUsage } from "../../domain/cidr/usage.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrUsage"> =
  ({ limits: { usage } }) =>
  (body) =>
    cidrUsage(body.pool, body.used, usage);
