/**
 * CIDR prefixes: an address plus a prefix length, host bits always cleared (Go `netip.Prefix`
 * after `Masked()`). Parsing follows CONTRACT §2: `/` then a decimal length without leading zeros,
 * 0–32 or 0–128; host bits set are normalized silently; a bare address is a /32 or /128.
 */

import {
  explainAddr,
  explainEntryShape,
  familyLabel,
  guessFamily,
  IpAddr,
  type IpFamily,
  type ParseResult,
  quoteEntry,
  scanAddr,
  scanAddrWords,
  trimAsciiWhitespace,
} from "./addr.ts";
import { formatWords } from "./text.ts";
import { maskWord } from "./u128.ts";

/** A CIDR block: `addr` is its first address (host bits zero) and `bits` its prefix length. */
export class IpPrefix {
  private constructor(
    /** The network address: the first address of the block. */
    readonly addr: IpAddr,
    /** Prefix length: 0–32 for IPv4, 0–128 for IPv6. */
    readonly bits: number,
  ) {}

  /**
   * The block of the first `bits` bits of `addr`; host bits are cleared (`10.1.2.3`, 8 → `10.0.0.0/8`).
   * Throws `RangeError` when `bits` is not an integer from 0 to the family's bit length.
   */
  static from(addr: IpAddr, bits: number): IpPrefix {
    if (!Number.isInteger(bits) || bits < 0 || bits > addr.bitLength) {
      throw new RangeError(`prefix length ${bits} is out of range for IPv${addr.family}`);
    }
    const len = bits + 128 - addr.bitLength;
    const w0 = (addr.w0 & maskWord(len, 0)) >>> 0;
    const w1 = (addr.w1 & maskWord(len, 1)) >>> 0;
    const w2 = (addr.w2 & maskWord(len, 2)) >>> 0;
    const w3 = (addr.w3 & maskWord(len, 3)) >>> 0;
    if (w0 === addr.w0 && w1 === addr.w1 && w2 === addr.w2 && w3 === addr.w3) return new IpPrefix(addr, bits);
    return new IpPrefix(IpAddr.fromWords(addr.family, w0, w1, w2, w3), bits);
  }

  /**
   * The block with network address words `w0`–`w3` (`w3` alone for IPv4) and length `bits`, as
   * {@link scanPrefixWords} reads them: the words must already have their host bits clear.
   */
  static ofNetworkWords(
    family: IpFamily,
    w0: number,
    w1: number,
    w2: number,
    w3: number,
    bits: number,
  ): IpPrefix {
    return new IpPrefix(IpAddr.fromWords(family, w0, w1, w2, w3), bits);
  }

  /** 4 or 6. */
  get family(): IpFamily {
    return this.addr.family;
  }

  /** The first address of the block (the network address). */
  get first(): IpAddr {
    return this.addr;
  }

  /** The last address of the block (for IPv4, the broadcast address). */
  get last(): IpAddr {
    const a = this.addr;
    const len = this.bits + 128 - a.bitLength;
    return IpAddr.fromWords(
      a.family,
      (a.w0 | ~maskWord(len, 0)) >>> 0,
      (a.w1 | ~maskWord(len, 1)) >>> 0,
      (a.w2 | ~maskWord(len, 2)) >>> 0,
      (a.w3 | ~maskWord(len, 3)) >>> 0,
    );
  }

  /** True when `addr` is of the same family and inside the block. An IPv4-mapped IPv6 address is not unmapped. */
  contains(addr: IpAddr): boolean {
    const a = this.addr;
    if (addr.family !== a.family) return false;
    const len = this.bits + 128 - a.bitLength;
    return (
      (addr.w0 & maskWord(len, 0)) >>> 0 === a.w0 &&
      (addr.w1 & maskWord(len, 1)) >>> 0 === a.w1 &&
      (addr.w2 & maskWord(len, 2)) >>> 0 === a.w2 &&
      (addr.w3 & maskWord(len, 3)) >>> 0 === a.w3
    );
  }

  /** Exact number of addresses in the block, 2^(bit length − prefix length). */
  addressCount(): bigint {
    return 1n << BigInt(this.addr.bitLength - this.bits);
  }

  /** Canonical text: canonical address, `/`, decimal prefix length (`2001:db8::/32`, `::ffff:10.0.0.0/104`). */
  toString(): string {
    const a = this.addr;
    return formatWords(a.family, a.w0, a.w1, a.w2, a.w3, this.bits);
  }
}

/** True when `prefix` contains `addr` (same family, inside the block). See {@link IpPrefix.contains}. */
export function prefixContains(prefix: IpPrefix, addr: IpAddr): boolean {
  return prefix.contains(addr);
}

/**
 * Parses a CIDR or a bare address (CONTRACT §2). Surrounding ASCII whitespace is ignored; the
 * length is `/` and decimal digits without a leading zero, 0–32 (IPv4) or 0–128 (IPv6); host bits
 * are cleared silently; a bare address becomes a /32 or /128.
 *
 * The failure message quotes the (trimmed) entry, e.g.
 * `"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum`.
 */
export function parsePrefix(text: string): ParseResult<IpPrefix> {
  const bits = scanPrefixWords(text, scannedPrefix);
  if (bits < 0) return { ok: false, message: explainPrefix(trimAsciiWhitespace(text)) };
  const w = scannedPrefix;
  return { ok: true, value: IpPrefix.ofNetworkWords(w[4] === 4 ? 4 : 6, w[0]!, w[1]!, w[2]!, w[3]!, bits) };
}

/** The words `parsePrefix` read last. */
const scannedPrefix = new Uint32Array(5);

/**
 * {@link parsePrefix} without objects or messages: on success the block's network address (host
 * bits cleared) is in `out[0 … 3]` (an IPv4 address in `out[3]`), its family in `out[4]`, and the
 * result is its prefix length; -1 when `text` is not a CIDR or address. Allocates nothing unless
 * `text` has surrounding whitespace.
 */
export function scanPrefixWords(text: string, out: Uint32Array): number {
  const s = trimAsciiWhitespace(text);
  const slash = s.indexOf("/");
  const family = scanAddrWords(s, 0, slash < 0 ? s.length : slash, out);
  if (family === 0) return -1;
  const bitLength = family === 4 ? 32 : 128;
  const bits = slash < 0 ? bitLength : scanPrefixLength(s, slash + 1, bitLength);
  if (bits < 0) return -1;
  const len = bits + 128 - bitLength;
  out[0] = out[0]! & maskWord(len, 0);
  out[1] = out[1]! & maskWord(len, 1);
  out[2] = out[2]! & maskWord(len, 2);
  out[3] = out[3]! & maskWord(len, 3);
  out[4] = family;
  return bits;
}

/** Strict prefix length in `s[start..]`: its value, or -1 (empty, not decimal, leading zero, above `max`). */
function scanPrefixLength(s: string, start: number, max: number): number {
  const end = s.length;
  if (start >= end || end - start > 3) return -1;
  if (s.charCodeAt(start) === 48 && end - start > 1) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n <= max ? n : -1;
}

function explainPrefix(s: string): string {
  const slash = s.indexOf("/");
  if (slash < 0)
    return `${quoteEntry(s)} is not a valid ${familyLabel(guessFamily(s))} address: ${explainAddr(s)}`;
  const addrText = s.slice(0, slash);
  const lengthText = s.slice(slash + 1);
  const addr = scanAddr(addrText, 0, addrText.length);
  const family = addr?.family ?? guessFamily(addrText);
  return `${quoteEntry(s)} is not a valid ${familyLabel(family)} CIDR: ${explainPrefixParts(s, addrText, lengthText, addr)}`;
}

function explainPrefixParts(s: string, addrText: string, lengthText: string, addr: IpAddr | null): string {
  const shape = explainEntryShape(s);
  if (shape !== null) return shape;
  if (addrText === "") return 'the address before "/" is missing';
  if (lengthText.includes("/")) return 'it has more than one "/"';
  if (addr === null) return explainAddr(addrText);
  if (lengthText === "") return 'the prefix length after "/" is missing';
  if (addr.family === 4 && scanAddr(lengthText, 0, lengthText.length)?.family === 4) {
    return explainNetmask(addrText, lengthText);
  }
  if (!/^[0-9]+$/.test(lengthText)) return `prefix length ${quoteEntry(lengthText)} is not a decimal number`;
  if (lengthText.length > 1 && lengthText.startsWith("0")) {
    return `prefix length ${quoteEntry(lengthText)} has a leading zero`;
  }
  return `prefix length ${lengthText} is above ${addr.bitLength}, the IPv${addr.family} maximum`;
}

/**
 * Why `addr/mask` with a dotted-quad mask is refused, and the CIDR to write instead when the mask is
 * a contiguous netmask (`10.0.0.0/255.255.255.0` → `10.0.0.0/24`).
 */
function explainNetmask(addrText: string, maskText: string): string {
  const mask = scanAddr(maskText, 0, maskText.length)!.w3;
  const ones = Math.clz32(~mask);
  const contiguous = ones === 32 || (mask << ones) >>> 0 === 0;
  if (!contiguous) {
    return `${quoteEntry(maskText)} is netmask notation, and not a contiguous netmask; write a prefix length after "/" (0 to 32)`;
  }
  return `${quoteEntry(maskText)} is netmask notation; write the prefix length instead: ${addrText}/${ones}`;
}
