/** The use case of `cidrAllocate`, bound to its ports: allocate: free blocks found in a pool (src/domain/cidr/allocate.ts). */
import { allocateCidrs } from "../../domain/cidr/allocate.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"cidrAllocate"> =
  ({ limits: { allocation } }) =>
  (body) =>
    allocateCidrs(body, allocation);
