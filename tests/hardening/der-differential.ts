/**
 * Differential fuzzing of the DER decoder against `openssl x509 -inform der -noout` (issue 12,
 * docs/certificates-der.md): seeded mutations of real certificates, each judged by both, and
 * every disagreement sorted into the classes where the decoder is stricter on purpose.
 *
 * Used by tests/hardening/der-differential.test.ts (a bounded run) and scripts/fuzz-der.ts (the
 * long run: `npm run fuzz:der -- --count 25000`).
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import type { CertificateDecoder } from "../../src/domain/ports.ts";
import { SNAPSHOTS } from "../fixtures/ca-bundles/ca-bundles.ts";
import { certDer, certNames, pemToDers } from "../fixtures/fixtures.ts";

// ---------------------------------------------------------------------------------------------
// A seeded generator (mulberry32): the same seed gives the same mutants on every machine.

export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, below: number): number => Math.floor(random() * below);

// ---------------------------------------------------------------------------------------------
// A DER tree that can be edited and written back with correct lengths, so that a mutation deep
// inside a certificate reaches the checks of that field instead of breaking every parent.

interface Node {
  /** The identifier octet(s), as found. */
  id: Uint8Array;
  /** Children of a constructed node; null for a primitive one. */
  kids: Node[] | null;
  /** Content of a primitive node. */
  content: Uint8Array;
}

function parseTree(buf: Uint8Array, start: number, end: number): Node[] | null {
  const out: Node[] = [];
  let p = start;
  while (p < end) {
    const idStart = p;
    if ((buf[p]! & 0x1f) === 0x1f) {
      p++;
      while (p < end && buf[p]! & 0x80) p++;
    }
    p++;
    if (p >= end) return null;
    let len = buf[p++]!;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 3) return null;
      len = 0;
      for (let k = 0; k < n; k++) len = len * 256 + buf[p++]!;
    }
    if (p + len > end) return null;
    const idBytes = buf.slice(idStart, idStart + identifierLength(buf, idStart));
    const constructed = (buf[idStart]! & 0x20) !== 0;
    // An OCTET STRING or BIT STRING holding DER (extension values, keys) stays primitive here.
    const kids = constructed ? parseTree(buf, p, p + len) : null;
    if (constructed && kids === null) return null;
    out.push({ id: idBytes, kids, content: constructed ? new Uint8Array() : buf.slice(p, p + len) });
    p += len;
  }
  return out;
}

function identifierLength(buf: Uint8Array, at: number): number {
  if ((buf[at]! & 0x1f) !== 0x1f) return 1;
  let n = 1;
  while (buf[at + n]! & 0x80) n++;
  return n + 1;
}

function lengthOctets(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

function write(nodes: Node[]): Uint8Array {
  const parts: number[] = [];
  for (const node of nodes) {
    const body = node.kids === null ? node.content : write(node.kids);
    parts.push(...node.id, ...lengthOctets(body.length));
    for (let k = 0; k < body.length; k++) parts.push(body[k]!);
  }
  return Uint8Array.from(parts);
}

/** Every node of a tree with its parent list, depth first. */
function allNodes(nodes: Node[], out: { node: Node; parent: Node[] }[] = []) {
  for (const node of nodes) {
    out.push({ node, parent: nodes });
    if (node.kids !== null) allNodes(node.kids, out);
  }
  return out;
}

/** Small TLVs that stress the checks: odd NULLs, BOOLEANs, INTEGERs, OIDs, BIT STRINGs, tags. */
const SNIPPETS = [
  "0500",
  "050100",
  "0101ff",
  "010101",
  "0102ffff",
  "020100",
  "02020001",
  "0200",
  "06012a",
  "06028001",
  "060181",
  "0600",
  "030108",
  "03020800",
  "030103",
  "030100",
  "3000",
  "3100",
  "0400",
  "0c01ff",
  "1e0141",
  "a000",
  "8000",
  "2500",
  "1000",
  "0000",
  "1f2000",
  "060a2a8fffffffffffffff7f",
  "0a020001",
].map((h) => Uint8Array.from(Buffer.from(h, "hex")));

/** Identifier octets a tag swap may choose. */
const TAGS = [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0a, 0x0c, 0x10, 0x13, 0x16, 0x17, 0x18, 0x1e, 0x21, 0x23, 0x24,
  0x25, 0x26, 0x30, 0x31, 0x80, 0x81, 0x82, 0x83, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4,
];

/** One structural mutation of a copy of the tree (lengths recomputed on writing). */
function mutateTree(random: Random, tree: Node[]): Uint8Array {
  const nodes = allNodes(tree);
  const { node, parent } = pick(random, nodes);
  const primitive = nodes.filter((n) => n.node.kids === null);
  if (primitive.length === 0) primitive.push({ node, parent });
  switch (int(random, 9)) {
    case 0: {
      // Replace a primitive node's content octet.
      const target = pick(random, primitive).node;
      if (target.kids === null && target.content.length > 0) {
        const copy = target.content.slice();
        copy[int(random, copy.length)] = int(random, 256);
        target.content = copy;
      }
      break;
    }
    case 1: {
      // Truncate or extend a primitive node's content.
      const target = pick(random, primitive).node;
      if (target.kids !== null) break;
      const c = target.content;
      target.content =
        random() < 0.5 ? c.slice(0, int(random, c.length + 1)) : Uint8Array.from([...c, int(random, 256)]);
      break;
    }
    case 2: {
      // Swap the tag (a constructed node keeps its children as content).
      const tag = pick(random, TAGS);
      if (node.kids !== null && (tag & 0x20) === 0) {
        node.content = write(node.kids);
        node.kids = null;
      } else if (node.kids === null && tag & 0x20) {
        node.kids = parseTree(node.content, 0, node.content.length) ?? [];
      }
      node.id = Uint8Array.of(tag);
      break;
    }
    case 3: {
      // Insert a snippet next to a node.
      const s = pick(random, SNIPPETS);
      parent.splice(parent.indexOf(node) + int(random, 2), 0, ...(parseTree(s, 0, s.length) ?? []));
      break;
    }
    case 4: {
      // Replace a node with a snippet.
      const s = pick(random, SNIPPETS);
      parent.splice(parent.indexOf(node), 1, ...(parseTree(s, 0, s.length) ?? []));
      break;
    }
    case 5:
      // Delete or duplicate a node.
      if (random() < 0.5) parent.splice(parent.indexOf(node), 1);
      else parent.splice(parent.indexOf(node), 0, structuredClone(node));
      break;
    case 6: {
      // The unused-bits octet of a BIT STRING.
      const bits = nodes.filter(
        (n) => n.node.kids === null && n.node.id[0] === 0x03 && n.node.content.length > 0,
      );
      if (bits.length > 0) {
        const target = pick(random, bits).node;
        const copy = target.content.slice();
        copy[0] = pick(random, [1, 7, 8, 9, 0x80, 0xff]);
        target.content = copy;
      }
      break;
    }
    case 7: {
      // Re-read a primitive node's content as DER and mutate inside it (extension values).
      const octets = primitive.filter((n) => n.node.id[0] === 0x04 && n.node.content.length > 1);
      if (octets.length > 0) {
        const target = pick(random, octets).node;
        const inner = parseTree(target.content, 0, target.content.length);
        if (inner !== null && inner.length > 0) target.content = mutateTree(random, inner);
      }
      break;
    }
    default: {
      // An OID content octet, or a whole OID.
      const oids = primitive.filter((n) => n.node.id[0] === 0x06);
      if (oids.length > 0) {
        const target = pick(random, oids).node;
        const copy = target.content.slice();
        if (copy.length > 0) copy[int(random, copy.length)] = pick(random, [0x80, 0x81, 0xff, 0x7f, 0x00]);
        target.content = copy;
      }
    }
  }
  return write(tree);
}

/** One raw mutation of the bytes: flips, header edits, truncations, insertions. */
function mutateBytes(random: Random, der: Uint8Array): Uint8Array {
  const headers: number[] = [];
  const tree = parseTree(der, 0, der.length);
  if (tree !== null) {
    // Offsets of identifier octets, found by writing the tree back (it is DER already).
    let p = 0;
    const walk = (nodes: Node[]) => {
      for (const node of nodes) {
        headers.push(p);
        const body = node.kids === null ? node.content.length : write(node.kids).length;
        p += node.id.length + lengthOctets(body).length;
        if (node.kids !== null) walk(node.kids);
        else p += body;
      }
    };
    walk(tree);
  }
  const at = headers.length > 0 && random() < 0.7 ? pick(random, headers) : int(random, der.length);
  const copy = Array.from(der);
  switch (int(random, 6)) {
    case 0: // flip one bit
      copy[at] = copy[at]! ^ (1 << int(random, 8));
      break;
    case 1: // the length octet after a header, nudged
      if (at + 1 < copy.length) copy[at + 1] = (copy[at + 1]! + pick(random, [-2, -1, 1, 2, 0x80])) & 0xff;
      break;
    case 2: // a tag swap without touching anything else
      copy[at] = pick(random, TAGS);
      break;
    case 3: // truncation
      return Uint8Array.from(copy.slice(0, at));
    case 4: // an octet inserted at a header
      copy.splice(at, 0, int(random, 256));
      break;
    default: // trailing bytes, or a longer (non-minimal) length form of the outer SEQUENCE
      if (random() < 0.5) copy.push(...pick(random, [[0x00], [0x00, 0x00], [0x30, 0x00]]));
      else if (copy[1] === 0x82) copy.splice(1, 1, 0x83, 0x00);
  }
  return Uint8Array.from(copy);
}

/** A seeded mutant of `der`: mostly structural (lengths kept right), sometimes raw bytes. */
export function mutate(random: Random, der: Uint8Array): Uint8Array {
  if (random() < 0.35) return mutateBytes(random, der);
  const tree = parseTree(der, 0, der.length);
  if (tree === null || tree.length === 0) return mutateBytes(random, der);
  return mutateTree(random, tree);
}

// ---------------------------------------------------------------------------------------------
// Seeds: every fixture and a few Mozilla roots, from a committed bundle snapshot (the machine's
// roots change with its ca-certificates version, and the seeds must not).

/** The certificates mutants are made from: the fixtures, then every `step`-th root of the base snapshot. */
export function seedCertificates(mozillaRoots = 8): Uint8Array[] {
  const seeds = certNames().map((name) => certDer(name));
  const roots = pemToDers(readFileSync(SNAPSHOTS.base, "utf8"));
  const step = Math.max(1, Math.floor(roots.length / mozillaRoots));
  for (let k = 0; k < roots.length && seeds.length < certNames().length + mozillaRoots; k += step) {
    seeds.push(roots[k]!);
  }
  return seeds;
}

// ---------------------------------------------------------------------------------------------
// The oracles: `d2i_X509` of the machine's libcrypto through bun:ffi (fast: a fraction of a
// millisecond), and the openssl CLI (30 ms a process on a busy machine), which the tests use to
// check that the first agrees with it.

type D2i = (der: Uint8Array) => boolean;
let d2i: D2i | null = null;

/** `d2i_X509` of libcrypto.so.3 (the library the openssl CLI uses): true when it returns a certificate. */
export function d2iX509(der: Uint8Array): boolean {
  if (d2i === null) {
    const lib = dlopen("libcrypto.so.3", {
      d2i_X509: { args: [FFIType.ptr, FFIType.ptr, FFIType.i64], returns: FFIType.ptr },
      X509_free: { args: [FFIType.ptr], returns: FFIType.void },
    });
    d2i = (bytes) => {
      if (bytes.length === 0) return false;
      const cursor = new BigUint64Array(1);
      cursor[0] = BigInt(ptr(bytes));
      const x509 = lib.symbols.d2i_X509(null, ptr(cursor), bytes.length);
      if (x509 === null || x509 === 0) return false;
      lib.symbols.X509_free(x509);
      return true;
    };
  }
  return d2i(der);
}

/** Whether `openssl x509 -inform der -noout` loads each input, in order. */
export async function opensslVerdicts(inputs: readonly Uint8Array[], workers = 2): Promise<boolean[]> {
  const dir = mkdtempSync(join(tmpdir(), "der-differential-"));
  try {
    for (const [k, der] of inputs.entries()) writeFileSync(join(dir, `${k}.der`), der);
    const per = Math.ceil(inputs.length / workers);
    const runs = Array.from({ length: workers }, async (_, w) => {
      const from = w * per;
      const to = Math.min(inputs.length, from + per) - 1;
      if (to < from) return [] as boolean[];
      const script = `for i in $(seq ${from} ${to}); do if openssl x509 -inform der -in "$0/$i.der" -noout 2>/dev/null; then echo 1; else echo 0; fi; done`;
      const proc = Bun.spawn(["sh", "-c", script, dir], { stdout: "pipe", stderr: "ignore" });
      const text = await new Response(proc.stdout).text();
      await proc.exited;
      return text
        .trim()
        .split("\n")
        .map((line) => line === "1");
    });
    const verdicts = (await Promise.all(runs)).flat();
    if (verdicts.length !== inputs.length) throw new Error("openssl gave fewer verdicts than inputs");
    return verdicts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The deliberate differences (docs/certificates-der.md), recognised from the bytes and from the
// decoder's reason.

export type DifferenceClass =
  | "trailing bytes"
  | "not DER: BER forms, a primitive SEQUENCE or SET"
  | "empty BIT STRING with unused bits, or end-of-contents"
  | "OID over the bounds"
  | "RFC 5280 version rules"
  | "RFC 5280 time form"
  | "extension the decoder reads"
  | "duplicate extension";

const READ_EXTENSION_REASON =
  /^malformed (basicConstraints|keyUsage|subjectAltName|subjectKeyIdentifier|authorityKeyIdentifier|authorityInfoAccess|extendedKeyUsage|nameConstraints|cRLDistributionPoints) extension$/;
const STRING_TAGS = new Set([3, 4, 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 30]);

/** What a lenient (BER) walk of the bytes finds that strict DER forbids or bounds. */
function lenientFindings(der: Uint8Array): Set<DifferenceClass> {
  const found = new Set<DifferenceClass>();
  const walk = (start: number, end: number, depth: number): number => {
    let p = start;
    while (p < end) {
      if (der[p] === 0 && der[p + 1] === 0 && depth > 0) return p + 2; // end-of-contents
      const first = der[p]!;
      let tag = first & 0x1f;
      p++;
      if (tag === 0x1f) {
        tag = 0;
        let n = 0;
        while (p < end && der[p]! & 0x80) {
          tag = tag * 128 + (der[p++]! & 0x7f);
          n++;
        }
        if (p >= end) return end;
        tag = tag * 128 + der[p++]!;
        if (tag < 0x1f || der[p - n - 1] === 0x80)
          found.add("not DER: BER forms, a primitive SEQUENCE or SET");
      }
      if (p >= end) return end;
      let len = der[p++]!;
      let indefinite = false;
      if (len === 0x80) indefinite = true;
      else if (len & 0x80) {
        const n = len & 0x7f;
        len = 0;
        for (let k = 0; k < n && p < end; k++) len = len * 256 + der[p++]!;
        if (len < 0x80 || der[p - n] === 0) found.add("not DER: BER forms, a primitive SEQUENCE or SET");
      }
      const constructed = (first & 0x20) !== 0;
      const universal = first >> 6 === 0;
      if (indefinite) {
        found.add("not DER: BER forms, a primitive SEQUENCE or SET");
        if (!constructed) return end;
        p = walk(p, end, depth + 1);
        continue;
      }
      const stop = Math.min(end, p + len);
      if (universal && !constructed && (tag === 16 || tag === 17)) {
        found.add("not DER: BER forms, a primitive SEQUENCE or SET");
      }
      if (universal && constructed && STRING_TAGS.has(tag))
        found.add("not DER: BER forms, a primitive SEQUENCE or SET");
      if (universal && !constructed && tag === 3 && len === 1 && der[p] !== 0) {
        found.add("empty BIT STRING with unused bits, or end-of-contents");
      }
      if (universal && tag === 0) found.add("empty BIT STRING with unused bits, or end-of-contents");
      if (universal && !constructed && tag === 6 && oidOutOfBounds(der, p, stop))
        found.add("OID over the bounds");
      if (constructed) walk(p, stop, depth + 1);
      // Primitive OCTET STRINGs hold extension values: look inside them as well.
      else if (universal && tag === 4 && len > 1) walk(p, stop, depth + 1);
      p = stop;
    }
    return p;
  };
  walk(0, der.length, 0);
  return found;
}

function oidOutOfBounds(der: Uint8Array, start: number, end: number): boolean {
  let arcs = 1;
  let value = 0;
  for (let k = start; k < end; k++) {
    value = value * 128 + (der[k]! & 0x7f);
    if (value > 0xffffffff + 80) return true;
    if ((der[k]! & 0x80) === 0) {
      arcs++;
      value = 0;
    }
  }
  return arcs > 64;
}

/** The deliberate classes a certificate the decoder refused (with `reason`) may fall in. */
export function differenceClasses(der: Uint8Array, reason: string): Set<DifferenceClass> {
  const classes = lenientFindings(der);
  if (reason === "trailing bytes after the certificate") classes.add("trailing bytes");
  if (READ_EXTENSION_REASON.test(reason)) classes.add("extension the decoder reads");
  if (reason === "duplicate extension") classes.add("duplicate extension");
  if (
    reason === "unsupported certificate version" ||
    reason === "malformed version" ||
    reason === "extensions need certificate version 3" ||
    reason === "unique identifiers need certificate version 2 or 3"
  ) {
    classes.add("RFC 5280 version rules");
  }
  if (reason === "malformed validity") classes.add("RFC 5280 time form");
  return classes;
}

// ---------------------------------------------------------------------------------------------
// One run.

export interface DifferentialReport {
  count: number;
  agree: number;
  /** The mutants, in order. */
  mutants: Uint8Array[];
  /** openssl refused, the decoder accepted: must be none. */
  acceptedButOpensslRejects: Uint8Array[];
  /** The decoder refused, openssl loaded, per deliberate class (a mutant may count in several). */
  stricterByClass: Map<DifferenceClass, number>;
  /** The decoder refused, openssl loaded, and no deliberate class explains it. */
  unexplained: { der: Uint8Array; reason: string }[];
  opensslRejected: number;
}

/** The `count` mutants of `seeds` that `seed` gives. */
export function makeMutants(count: number, seed: number, seeds: readonly Uint8Array[]): Uint8Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    let der = mutate(random, pick(random, seeds));
    // Now and then a second edit, as real corruption rarely comes alone.
    if (random() < 0.15) der = mutate(random, der);
    return der;
  });
}

/** Makes `count` mutants from `seeds` with `seed`, and judges each with the decoder and `d2i_X509`. */
export async function runDifferential(
  count: number,
  seed: number,
  seeds: readonly Uint8Array[],
  decoder: CertificateDecoder = new DerCertificateDecoder(),
): Promise<DifferentialReport> {
  const mutants = makeMutants(count, seed, seeds);
  const ours = await Promise.all(mutants.map((der) => decoder.decode(der)));
  const openssl = mutants.map((der) => d2iX509(der));
  const report: DifferentialReport = {
    count,
    mutants,
    agree: 0,
    acceptedButOpensslRejects: [],
    stricterByClass: new Map(),
    unexplained: [],
    opensslRejected: openssl.filter((ok) => !ok).length,
  };
  for (let k = 0; k < count; k++) {
    const result = ours[k]!;
    if (result.ok === openssl[k]) {
      report.agree++;
    } else if (result.ok) {
      report.acceptedButOpensslRejects.push(mutants[k]!);
    } else {
      const classes = differenceClasses(mutants[k]!, result.reason);
      if (classes.size === 0) report.unexplained.push({ der: mutants[k]!, reason: result.reason });
      for (const c of classes) report.stricterByClass.set(c, (report.stricterByClass.get(c) ?? 0) + 1);
    }
  }
  return report;
}

/** A short text summary of a report (no certificate content). */
export function summarise(report: DifferentialReport): string {
  const pct = (n: number) => `${((100 * n) / report.count).toFixed(2)} %`;
  const lines = [
    `mutants: ${report.count}, openssl refused ${report.opensslRejected}`,
    `agreement: ${report.agree} (${pct(report.agree)})`,
    `accepted although openssl refuses: ${report.acceptedButOpensslRejects.length}`,
    `stricter on purpose: ${report.count - report.agree - report.acceptedButOpensslRejects.length - report.unexplained.length}`,
    ...[...report.stricterByClass].map(([c, n]) => `  ${c}: ${n}`),
    `stricter, unexplained: ${report.unexplained.length}`,
  ];
  return lines.join("\n");
}
