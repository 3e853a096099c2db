/**
 * Hostname answers in words (CONTRACT §7.1, §7.6): `chain` says a matched hostname positively
 * (`hostname 10.0.0.5: matched (IP SAN)`, `hostname www.example.com: matched (DNS SAN
 * *.example.com)`), and `cert -H ADDRESS` checks the address against the leaf's IP SANs here, in
 * this process, with the chain's rule (the spec's bundle operation takes DNS names only), instead
 * of saying "not checked". Words for people, so src/local/: the page may say them too.
 */

import type { ResultOf } from "../contract/operations.ts";
import { type ExpectedIdentity, matchIdentity, validateIdentity } from "../domain/certificates/identity.ts";
import type { SubjectAltName } from "../domain/certificates/model.ts";
import { scanPem } from "../domain/certificates/pem.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { CertificateDecoder } from "../domain/ports.ts";

/** A hostname the CLI checks: the identity and the words for its outcome. */
export interface HostnameAnswer {
  /** True matched, false not matched, null not decided (no leaf, or several). */
  matched: boolean | null;
  /**
   * The answer in the bundle result's own shape (CONTRACT §9.6): `expected` as the bundle
   * operation would write it (an address in RFC 5952 text), and its status.
   */
  hostname: NonNullable<ResultOf<"certificateBundle">["hostname"]>;
  /** `10.0.0.5: matched (IP SAN)`, without the word `hostname`. */
  words: string;
}

/**
 * The chain's reading of a `--hostname` value (CONTRACT §7.1): a DNS name or an IPv4/IPv6
 * address; `issue` is the domain's message for anything else (an address in brackets, with a
 * zone or a prefix length names the accepted form).
 */
export function readIdentity(text: string): { identity: ExpectedIdentity | null; issue: string | null } {
  const read = validateIdentity(text);
  return { identity: read.expected, issue: read.issues[0]?.message ?? null };
}

/** `10.0.0.5: matched (IP SAN)`, `www.example.com: matched (DNS SAN *.example.com)`, or why not. */
export function answerFor(identity: ExpectedIdentity, sans: readonly SubjectAltName[]): HostnameAnswer {
  const name = identityName(identity);
  const san = matchIdentity(identity, sans);
  if (san !== null) {
    return {
      matched: true,
      hostname: { expected: name, status: "matched" },
      words: `${name}: ${identity.kind === "ip" ? "matched (IP SAN)" : `matched (DNS SAN ${san})`}`,
    };
  }
  const type = identity.kind === "ip" ? "ip" : "dns";
  const listed = sans.filter((entry) => entry.type === type).map((entry) => entry.value);
  const kind = identity.kind === "ip" ? "IP SAN" : "DNS SAN";
  const seen = listed.length === 0 ? `the leaf has no ${kind}` : `the leaf's ${kind}s: ${shortList(listed)}`;
  return {
    matched: false,
    hostname: { expected: name, status: "mismatched" },
    words: `${name}: not matched (${seen})`,
  };
}

/**
 * `cert`'s answer for an address, from the bundle result: the selected leaf's IP SANs, or, with no
 * selected leaf, why nothing was checked (the bundle's statuses `no-leaf` and `ambiguous`).
 */
export function bundleAddressAnswer(
  identity: ExpectedIdentity,
  result: ResultOf<"certificateBundle">,
): HostnameAnswer {
  const leaf = result.selectedLeafIndex === null ? undefined : result.certificates[result.selectedLeafIndex];
  if (leaf === undefined) {
    const status = result.leafIndexes.length === 0 ? "no-leaf" : "ambiguous";
    return {
      matched: null,
      hostname: { expected: identityName(identity), status },
      words: `${identityName(identity)}: ${status}`,
    };
  }
  return answerFor(identity, leaf.sans);
}

/** `cert`'s words for a DNS name the bundle operation checked, with the SAN that matched. */
export function bundleNameWords(result: ResultOf<"certificateBundle">): string | undefined {
  if (result.hostname === null) return undefined;
  const match = result.findings.find((finding) => finding.code === "HOSTNAME_MATCH");
  const san = match?.evidence.matchedName;
  return typeof san === "string"
    ? `${result.hostname.expected}: matched (DNS SAN ${san})`
    : `${result.hostname.expected}: ${result.hostname.status}`;
}

/**
 * The SANs of the certificate at `position` of `pem`, decoded with `decoder` (the chain result
 * lists no SANs); null when it cannot be read, which cannot happen for a bundle the operation
 * accepted.
 */
export async function sansAt(
  pem: string,
  position: number,
  decoder: CertificateDecoder,
): Promise<SubjectAltName[] | null> {
  const block = scanPem(pem, LOCAL_CERTIFICATE_LIMITS).blocks[position];
  if (block === undefined) return null;
  const decoded = await decoder.decode(block.der);
  return decoded.ok ? decoded.certificate.sans : null;
}

function identityName(identity: ExpectedIdentity): string {
  return identity.kind === "dns" ? identity.name : identity.text;
}

function shortList(values: readonly string[]): string {
  const shown = values.slice(0, 5).join(", ");
  return values.length > 5 ? `${shown} and ${values.length - 5} more` : shown;
}
