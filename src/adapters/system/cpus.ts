/**
 * Temporary re-export: the CPU count moved to src/process/cpus.ts. Kept only until
 * src/cli/main.ts (being reworked on main) imports the new place; then this file is deleted.
 */
export { cgroupCpuQuota, usableCpuCount } from "../../process/cpus.ts";
