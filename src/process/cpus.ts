/**
 * How many CPUs this process can really use, for WORKERS=auto (docs/decisions/0009-workers-default.md):
 * the CPUs it may run on (its affinity mask, as `navigator.hardwareConcurrency` reports it),
 * capped by a container's CPU quota (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` /
 * `cpu.cfs_period_us`), rounded up. A pod limited to 1 CPU on a 32-core node gets 1, not 32.
 */
import { readFileSync } from "node:fs";

type ReadText = (path: string) => string | null;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** The quota in CPUs (may be fractional), or null when there is none or it cannot be read. */
export function cgroupCpuQuota(read: ReadText = readText): number | null {
  const v2 = read("/sys/fs/cgroup/cpu.max")?.trim();
  if (v2 !== undefined) {
    const [quota, period] = v2.split(/\s+/);
    if (quota === "max") return null;
    const cpus = Number(quota) / Number(period);
    return Number.isFinite(cpus) && cpus > 0 ? cpus : null;
  }
  const quota = Number(read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")?.trim());
  const period = Number(read("/sys/fs/cgroup/cpu/cpu.cfs_period_us")?.trim());
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return null;
  return quota / period;
}

/** CPUs available to this process: affinity count capped by the quota, at least 1. */
export function usableCpuCount(affinityCount: number, quota: number | null = cgroupCpuQuota()): number {
  const cpus = quota === null ? affinityCount : Math.min(affinityCount, Math.ceil(quota));
  return Math.max(1, cpus);
}
