/**
 * The requests of bench/wrk/'s workloads (same path, headers and body), for the in-process
 * benchmarks (handler-micro, handler-ab, admission-micro), plus merge with excludeSpecial.
 */
import { readFileSync } from "node:fs";

/** One workload's request: a GET without a body, or a POST of a JSON body. */
export interface Workload {
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const dataDir = new URL("../data/", import.meta.url);
const body = (name: string): string => readFileSync(new URL(name, dataDir), "utf8");

/** Each workload of bench/wrk/ (same path, headers and body), plus merge with excludeSpecial. */
export const WORKLOADS: Record<string, Workload> = {
  health: { path: "/v1/health" },
  "public-ip": { path: "/v1/public-ip", headers: { accept: "application/json" } },
  "public-ip-text": { path: "/v1/public-ip", headers: { accept: "text/plain" } },
  ip: { path: "/v1/ip" },
  "range-ipv4-small": { path: "/v1/range-to-cidrs", body: '{"start":"10.0.0.5","end":"10.0.0.77"}' },
  "range-ipv6-worst": {
    path: "/v1/range-to-cidrs",
    body: '{"start":"::1","end":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"}',
  },
  "split-1024": { path: "/v1/cidr-split", body: '{"cidr":"10.0.0.0/14","prefixLength":24}' },
  "reverse-zones": { path: "/v1/reverse-zones", body: '{"cidr":"192.168.0.0/17"}' },
  "merge-1000": { path: "/v1/cidr-merge", body: body("merge-1000.json") },
  "merge-1000 -x": {
    path: "/v1/cidr-merge",
    body: JSON.stringify({ ...JSON.parse(body("merge-1000.json")), excludeSpecial: true }),
  },
  "subtract-1000": { path: "/v1/cidr-subtract", body: body("subtract-1000.json") },
  "cover-1000": { path: "/v1/cidr-cover", body: body("cover-1000.json") },
  "compare-1000": { path: "/v1/cidr-compare", body: body("compare-1000.json") },
  "contains-1000": { path: "/v1/cidr-contains", body: body("contains-1000.json") },
  "allocate-1000": { path: "/v1/cidr-allocate", body: body("allocate-1000.json") },
  "usage-1000": { path: "/v1/cidr-usage", body: body("usage-1000.json") },
  "cert-chain-3": { path: "/v1/certificate-bundle", body: body("cert-chain-3.json") },
  "cert-bundle-16": { path: "/v1/certificate-bundle", body: body("cert-bundle-16.json") },
  "chain-16": { path: "/v1/certificate-chain", body: body("cert-bundle-16.json") },
  csr: { path: "/v1/csr", body: body("csr.json") },
};

/** The workloads named, in that order; an unknown name is an error naming the known ones. */
export function workloadsNamed(names: readonly string[]): Record<string, Workload> {
  const chosen: Record<string, Workload> = {};
  for (const name of names) {
    const workload = WORKLOADS[name];
    if (workload === undefined)
      throw new Error(`no workload ${name}: one of ${Object.keys(WORKLOADS).join(", ")}`);
    chosen[name] = workload;
  }
  return chosen;
}
