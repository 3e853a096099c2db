/**
 * The two 64 KiB bodies the invalid-body flood compares (issue 16): the largest valid
 * cidr-cover body, and the attack's body of empty objects, which is refused with 100 issues.
 */

/** 1000 distinct IPv6 addresses, each padded with leading spaces to 62 characters: about 64 KiB, answered 200. */
export function largestValidCoverBody(): string {
  const inputs = Array.from({ length: 1000 }, (_, i) =>
    `2001:db8:85a3:0:0:8a2e:${(i >> 8).toString(16)}:${(i & 0xff).toString(16)}`.padStart(62, " "),
  );
  return JSON.stringify({ inputs });
}

/** `{"inputs":[{},{},…]}` filling 64 KiB (21,844 empty objects). */
export function emptyObjectsCoverBody(): string {
  const count = Math.floor((65_536 - '{"inputs":[]}'.length + 1) / 3);
  return `{"inputs":[${Array(count).fill("{}").join(",")}]}`;
}

/**
 * The costliest valid body of each CIDR operation, by path (each answered 200 by an idle server):
 * what the admission floods repeat (tests/e2e/admission.test.ts, bench/flood.ts `--each`).
 */
export function costliestCidrBodies(): Record<string, unknown> {
  const blocks = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => `10.${((i + from) >> 8) & 255}.${(i + from) & 255}.0/24`);
  const addresses = (n: number) =>
    Array.from({ length: n }, (_, i) => `2001:db8::${((i * 7919) % 65_536).toString(16)}`);
  return {
    "/v1/cidr-merge": { inputs: blocks(1000) },
    "/v1/cidr-compare": { a: blocks(500), b: blocks(500, 250) },
    "/v1/cidr-split": { cidr: "10.0.0.0/8", prefixLength: 24, limit: 10_000 },
    "/v1/cidr-contains": { cidrs: blocks(500), entries: blocks(500, 250) },
    "/v1/cidr-subtract": {
      include: blocks(500),
      exclude: blocks(500, 250).map((b) => b.replace("/24", "/28")),
    },
    "/v1/cidr-cover": { inputs: addresses(1000) },
    "/v1/cidr-allocate": { within: ["10.0.0.0/8"], used: blocks(999), prefixLength: 24, count: 1000 },
    "/v1/cidr-subnets": { prefix: "10.0.0.0/8", newbits: Array(1000).fill(16) },
    "/v1/reverse-zones": { cidr: "10.0.0.0/9" },
    "/v1/range-to-cidrs": { start: "0.0.0.1", end: "255.255.255.254" },
    "/v1/cidr-usage": { pool: blocks(1000), used: blocks(3000) },
  };
}
