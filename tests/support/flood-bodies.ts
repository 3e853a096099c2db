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
