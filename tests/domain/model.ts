/**
 * A slow, obviously-correct model of the CIDR use cases: plain `bigint` interval arithmetic, no
 * parsing, no performance tricks. Property tests compare the real implementation against it.
 *
 * It deliberately uses other algorithms than `src/`: a greedy split instead of halving, a search
 * over every prefix length for the cover, and its own RFC 5952 printer built from strings.
 */

export type Family = 4 | 6;

/** A parsed entry as the generators know it: the family, the value as written, the prefix length. */
export interface ModelEntry {
  family: Family;
  value: bigint;
  bits: number;
}

/** An inclusive interval of addresses. */
export interface Interval {
  first: bigint;
  last: bigint;
}

export function width(family: Family): number {
  return family === 4 ? 32 : 128;
}

export function maxValue(family: Family): bigint {
  return (1n << BigInt(width(family))) - 1n;
}

/** Canonical text of an address (CONTRACT §2): dotted quad; RFC 5952; `::ffff:a.b.c.d` when mapped. */
export function formatAddr(family: Family, value: bigint): string {
  if (family === 4) return dotted(value);
  if (value >> 32n === 0xffffn) return `::ffff:${dotted(value & 0xffffffffn)}`;
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(16 * i)) & 0xffffn));
  // every run of zero groups, as [start, length]
  const runs: [number, number][] = [];
  for (let i = 0; i < 8; i++) {
    if (groups[i] !== 0) continue;
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    runs.push([i, j - i]);
    i = j;
  }
  let best: [number, number] | undefined;
  for (const run of runs) {
    if (run[1] >= 2 && (best === undefined || run[1] > best[1])) best = run;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best === undefined) return hex.join(":");
  const head = hex.slice(0, best[0]).join(":");
  const tail = hex.slice(best[0] + best[1]).join(":");
  return `${head}::${tail}`;
}

function dotted(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
}

/** Canonical text of a prefix. */
export function formatCidr(family: Family, network: bigint, bits: number): string {
  return `${formatAddr(family, network)}/${bits}`;
}

/** The block an entry stands for: host bits cleared, then every address of the prefix. */
export function blockOf(entry: ModelEntry): Interval {
  const hostBits = BigInt(width(entry.family) - entry.bits);
  const size = 1n << hostBits;
  const first = (entry.value / size) * size;
  return { first, last: first + size - 1n };
}

/** The union: sorted, overlapping or touching intervals joined. */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Interval[] = [];
  for (const iv of sorted) {
    const top = out[out.length - 1];
    if (top !== undefined && iv.first <= top.last + 1n) {
      if (iv.last > top.last) top.last = iv.last;
    } else {
      out.push({ ...iv });
    }
  }
  return out;
}

/** Every address of `a` that is in no interval of `b` (both unions). */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  let pieces = a.map((iv) => ({ ...iv }));
  for (const cut of b) {
    const next: Interval[] = [];
    for (const p of pieces) {
      if (cut.last < p.first || cut.first > p.last) {
        next.push(p);
        continue;
      }
      if (cut.first > p.first) next.push({ first: p.first, last: cut.first - 1n });
      if (cut.last < p.last) next.push({ first: cut.last + 1n, last: p.last });
    }
    pieces = next;
  }
  return pieces;
}

export function count(intervals: readonly Interval[]): bigint {
  return intervals.reduce((sum, iv) => sum + (iv.last - iv.first + 1n), 0n);
}

/**
 * Minimal prefixes of one interval, greedily: at each address, the largest block aligned there
 * (its lowest set bit; the whole space at 0) halved until it fits, again and again.
 */
export function cidrsOf(family: Family, iv: Interval): { network: bigint; bits: number }[] {
  const w = width(family);
  const out: { network: bigint; bits: number }[] = [];
  let cur = iv.first;
  while (cur <= iv.last) {
    let size = cur === 0n ? 1n << BigInt(w) : cur & -cur;
    while (cur + size - 1n > iv.last) size /= 2n;
    out.push({ network: cur, bits: w - log2(size) });
    cur += size;
  }
  return out;
}

function log2(powerOfTwo: bigint): number {
  return powerOfTwo.toString(2).length - 1;
}

function familyName(family: Family): "ipv4" | "ipv6" {
  return family === 4 ? "ipv4" : "ipv6";
}

/** cidr-cover as spec §2.3 defines it. All entries are of one family. */
export function modelCover(entries: readonly ModelEntry[]) {
  const family = entries[0]!.family;
  const w = width(family);
  const blocks = union(entries.map(blockOf));
  const low = blocks[0]!.first;
  const high = blocks[blocks.length - 1]!.last;
  // the longest prefix length whose block holds both ends
  let bits = w;
  while (low >> BigInt(w - bits) !== high >> BigInt(w - bits)) bits--;
  const network = (low >> BigInt(w - bits)) << BigInt(w - bits);
  const covered = 1n << BigInt(w - bits);
  const input = count(blocks);
  return {
    family: familyName(family),
    normalizedInputs: entries.map((e) => formatCidr(family, blockOf(e).first, e.bits)),
    cidr: formatCidr(family, network, bits),
    range: { first: formatAddr(family, network), last: formatAddr(family, network + covered - 1n) },
    inputAddressCount: String(input),
    coveredAddressCount: String(covered),
    additionalAddressCount: String(covered - input),
  };
}

/** cidr-subtract as spec §2.5 and CONTRACT §3 define it, or the number of CIDRs when over `limit`. */
export function modelSubtract(include: readonly ModelEntry[], exclude: readonly ModelEntry[], limit: number) {
  const family = include[0]!.family;
  const inc = union(include.map(blockOf));
  const exc = union(exclude.map(blockOf));
  const rest = subtract(inc, exc);
  const cidrs = rest.flatMap((iv) => cidrsOf(family, iv)).map((c) => formatCidr(family, c.network, c.bits));
  if (cidrs.length > limit) return { tooLarge: cidrs.length };
  const included = count(inc);
  const remaining = count(rest);
  return {
    family: familyName(family),
    normalizedInclude: include.map((e) => formatCidr(family, blockOf(e).first, e.bits)),
    normalizedExclude: exclude.map((e) => formatCidr(family, blockOf(e).first, e.bits)),
    cidrs,
    includedAddressCount: String(included),
    removedAddressCount: String(included - remaining),
    remainingAddressCount: String(remaining),
  };
}

/** range-to-cidrs as spec §2.7 defines it (first ≤ last). */
export function modelRange(family: Family, first: bigint, last: bigint) {
  const cidrs = cidrsOf(family, { first, last }).map((c) => formatCidr(family, c.network, c.bits));
  return {
    family: familyName(family),
    range: { first: formatAddr(family, first), last: formatAddr(family, last) },
    cidrs,
    cidrCount: cidrs.length,
    addressCount: String(last - first + 1n),
  };
}
