/**
 * A tiny DER writer and certificate surgeon for tests: builds names and extensions OpenSSL's CLI
 * cannot produce, and splices them into a real certificate (the signature no longer matches,
 * which the decoder does not check and `openssl x509 -noout` does not either).
 */
import * as asn1js from "asn1js";

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function length(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** One TLV with a single identifier octet. */
export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const body = concat(...content);
  return concat(Uint8Array.of(tag), length(body.length), body);
}

export const seq = (...parts: Uint8Array[]) => tlv(0x30, ...parts);
export const set = (...parts: Uint8Array[]) => tlv(0x31, ...parts);

export function oid(dotted: string): Uint8Array<ArrayBuffer> {
  const arcs = dotted.split(".").map((a) => BigInt(a));
  const first = arcs[0]! * 40n + arcs[1]!;
  const bytes: number[] = [];
  for (const arc of [first, ...arcs.slice(2)]) {
    const chunk: number[] = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) chunk.unshift(Number(v & 0x7fn) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

export const utf8 = (s: string) => tlv(0x0c, new TextEncoder().encode(s));
export const printable = (s: string) => tlv(0x13, Buffer.from(s, "latin1"));
export const ia5 = (s: string) => tlv(0x16, Buffer.from(s, "latin1"));
export const t61 = (bytes: number[]) => tlv(0x14, Uint8Array.from(bytes));

export function bmp(s: string): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) >> 8, s.charCodeAt(i) & 0xff);
  return tlv(0x1e, Uint8Array.from(out));
}

export function universal(s: string): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out.push(c >>> 24, (c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff);
  }
  return tlv(0x1c, Uint8Array.from(out));
}

export const atv = (type: string, value: Uint8Array) => seq(oid(type), value);
export const rdn = (...atvs: Uint8Array[]) => set(...atvs);
export const name = (...rdns: Uint8Array[]) => seq(...rdns);

export const CN = "2.5.4.3";
export const O = "2.5.4.10";
export const OU = "2.5.4.11";

function tbsChildren(cert: Uint8Array): { tbs: Uint8Array[]; alg: Uint8Array; sig: Uint8Array } {
  const parsed = asn1js.fromBER(cert);
  if (parsed.offset === -1) throw new Error("not DER");
  const top = (parsed.result as asn1js.Sequence).valueBlock.value;
  const tbs = (top[0] as asn1js.Sequence).valueBlock.value.map(
    (b) => new Uint8Array(b.valueBeforeDecodeView),
  );
  return {
    tbs,
    alg: new Uint8Array(top[1]!.valueBeforeDecodeView),
    sig: new Uint8Array(top[2]!.valueBeforeDecodeView),
  };
}

/** Index of the subject Name inside a v3 TBSCertificate (after [0] version). */
const SUBJECT = 5;
/** Index of the [3] extensions wrapper inside a v3 TBSCertificate with no unique identifiers. */
const EXTENSIONS = 7;

/** `cert` with its subject Name replaced by `nameDer`. */
export function withSubject(cert: Uint8Array, nameDer: Uint8Array): Uint8Array<ArrayBuffer> {
  const { tbs, alg, sig } = tbsChildren(cert);
  tbs[SUBJECT] = nameDer;
  return seq(seq(...tbs), alg, sig);
}

/** `cert` with its extensions replaced by these Extension SEQUENCEs. */
export function withExtensions(cert: Uint8Array, ...extensions: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const { tbs, alg, sig } = tbsChildren(cert);
  tbs[EXTENSIONS] = tlv(0xa3, seq(...extensions));
  return seq(seq(...tbs.slice(0, EXTENSIONS + 1)), alg, sig);
}

/** An Extension: SEQUENCE { extnID, [critical], extnValue OCTET STRING }. */
export function extension(type: string, value: Uint8Array, critical = false): Uint8Array<ArrayBuffer> {
  return critical
    ? seq(oid(type), Uint8Array.of(0x01, 0x01, 0xff), tlv(0x04, value))
    : seq(oid(type), tlv(0x04, value));
}

/** `cert` with its TBS replaced piecewise: `edit` receives and returns the TBS children. */
export function editTbs(
  cert: Uint8Array,
  edit: (tbs: Uint8Array[]) => Uint8Array[],
): Uint8Array<ArrayBuffer> {
  const { tbs, alg, sig } = tbsChildren(cert);
  return seq(seq(...edit(tbs)), alg, sig);
}
