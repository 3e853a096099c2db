/**
 * Certificate revocation lists, offline (CONTRACT §10.2): `POST /v1/crl` and `nettools crl` read
 * one CRL, check its signature with the CA that signed it when given, and look certificates up in
 * it; `nettools chain --crl` raises `REVOKED` and `CRL_STALE` for path members
 * ({@link revocationProblems}). Nothing is ever fetched: the operator brings the CRL.
 */

import { DomainError, type Issue } from "../errors.ts";
import type { CertificateDecoder, Clock, RevocationListDecoder, SignatureVerifier } from "../ports.ts";
import { type ChainProblem, problem } from "./chain-problems.ts";
import { readCertificates } from "./csr.ts";
import { rfc3339 } from "./findings.ts";
import { instantIssues, readInstant } from "./instant.ts";
import type { CertificateData } from "./model.ts";
import { DEFAULT_PEM_LIMITS, OUTSIDE_TEXT_MESSAGES, type PemKind, type PemLimits, scanPem } from "./pem.ts";
import type { RevocationListData, RevocationReason } from "./revocation-list-model.ts";
import { capitalize, certificateName } from "./wording.ts";

/** The one label of a CRL block (RFC 7468 §6). */
export const CRL_LABEL = "X509 CRL";

/** `crl`'s blocks: exactly one X509 CRL block, by §4.1's rules. */
export const CRL_PEM: PemKind = {
  labels: [CRL_LABEL],
  accepted: CRL_LABEL,
  noBlockMessage: "crl contains no X509 CRL block",
  outsideText: {
    ...OUTSIDE_TEXT_MESSAGES,
    binary:
      "binary data was pasted as text (a DER CRL, not PEM): convert it with openssl crl -inform DER -in list.crl -out list.pem, or give the file to nettools crl, which reads DER",
    comment:
      "comment lines (starting with #) are not part of PEM: keep only the BEGIN and END lines and what is between them",
    opensslText:
      "this is the readable text form of a CRL (openssl crl -text output) around the block: keep only the BEGIN and END lines and what is between them",
    opensslAttributes:
      "these are openssl's description lines around the block: keep only the BEGIN and END lines and what is between them",
    base64WithoutBegin:
      "base64 lines stand outside any block: the BEGIN X509 CRL line before them is missing",
  },
  labelAdvice: {
    CERTIFICATE:
      "a certificate is not a revocation list: give it as certificatePem to look it up, or as issuerPem when it signed the list",
  },
  counts: "accepted",
  tooManyMessage: () => "crl takes exactly one revocation list; this is a second X509 CRL block",
};

/** What a CRL block the decoder refuses is called (its reason stays out: it could name bytes). */
export const NOT_A_CRL_MESSAGE =
  "this X509 CRL block is not one well-formed certificate revocation list (RFC 5280 §5)";

/** `openssl crl -text`'s words for each reason (crypto/x509/v3_enum.c), for text output. */
export const REASON_WORDS: Readonly<Record<RevocationReason, string>> = {
  unspecified: "Unspecified",
  keyCompromise: "Key Compromise",
  cACompromise: "CA Compromise",
  affiliationChanged: "Affiliation Changed",
  superseded: "Superseded",
  cessationOfOperation: "Cessation Of Operation",
  certificateHold: "Certificate Hold",
  removeFromCRL: "Remove From CRL",
  privilegeWithdrawn: "Privilege Withdrawn",
  aACompromise: "AA Compromise",
};

/** The request of `POST /v1/crl`. */
export interface RevocationListRequest {
  crl: string;
  issuerPem?: string;
  certificatePem?: string;
  at?: string;
}

/** A given certificate looked up in the list. */
export interface RevocationLookup {
  index: number;
  serialNumber: string;
  revoked: boolean;
  revocationDate: string | null;
  /** The reason keyword of a revoked entry (null without reasonCode), or why the list cannot say. */
  reason: string | null;
}

export type CrlSignature = "verified" | "failed" | "not-checked";

export interface RevocationListResult {
  issuer: string;
  thisUpdate: string;
  nextUpdate: string | null;
  crlNumber: string | null;
  signatureAlgorithm: string;
  entries: number;
  signature: CrlSignature;
  stale: boolean;
  evaluatedAt: string;
  certificates: RevocationLookup[];
}

export interface RevocationListDeps {
  decoder: CertificateDecoder;
  revocationLists: RevocationListDecoder;
  verifier: SignatureVerifier;
  clock: Clock;
}

/** The reason given for a certificate this list cannot speak for. */
export const OTHER_ISSUER_REASON =
  "issued by another CA than this list's issuer: this list says nothing about it";

/**
 * Inspects one CRL (CONTRACT §10.2).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found: `crl` (located, §4.1's rules, exactly
 *   one `X509 CRL` block the strict reader accepts), `issuerPem` (one CERTIFICATE block, and its
 *   subject must be the list's issuer, byte for byte), `certificatePem` (1 to 16 blocks), `at`.
 */
export async function inspectRevocationList(
  request: RevocationListRequest,
  deps: RevocationListDeps,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<RevocationListResult> {
  const issues: Issue[] = [];
  const read = readRevocationListPem(request.crl, deps.revocationLists, limits.maxPemLength);
  issues.push(...read.issues);
  const issuer =
    request.issuerPem === undefined
      ? null
      : await readCertificates(request.issuerPem, "issuerPem", deps.decoder, { ...limits, maxBlocks: 1 });
  if (issuer !== null) issues.push(...issuer.issues);
  const certificates =
    request.certificatePem === undefined
      ? null
      : await readCertificates(request.certificatePem, "certificatePem", deps.decoder, limits);
  if (certificates !== null) issues.push(...certificates.issues);
  const at = request.at === undefined ? deps.clock.now() : parseInstant(request.at);
  issues.push(...instantIssues(request.at));
  const issuerCertificate = issuer?.certificates[0] ?? null;
  if (
    read.list !== null &&
    issuerCertificate !== null &&
    issuerCertificate.subjectNameKey !== read.list.issuerNameKey
  ) {
    issues.push({
      message: "issuerPem is not the CA that issued this list: its subject differs from the list's issuer",
      path: ["issuerPem"],
    });
  }
  if (issues.length > 0 || read.list === null || at === null) {
    throw new DomainError(
      "INVALID_INPUT",
      issues.length === 1 ? issues[0]!.message : `The request has ${issues.length} problems.`,
      issues,
    );
  }
  return answerRevocationList(
    read.list,
    issuerCertificate,
    certificates?.certificates ?? [],
    at,
    deps.verifier,
  );
}

/**
 * The answer for a list already read: the CLI's `nettools crl` calls it with a list of any size
 * read from a file; the API after reading its fields. `issuer` must be the list's issuer (by name).
 */
export async function answerRevocationList(
  list: RevocationListData,
  issuer: CertificateData | null,
  certificates: readonly CertificateData[],
  evaluatedAt: Date,
  verifier: SignatureVerifier,
): Promise<RevocationListResult> {
  const signature = issuer === null ? "not-checked" : await checkListSignature(list, issuer, verifier);
  const found = list.find(
    certificates.filter((c) => c.issuerNameKey === list.issuerNameKey).map((c) => c.serialNumber),
  );
  return {
    issuer: list.issuer,
    thisUpdate: rfc3339(list.thisUpdate),
    nextUpdate: list.nextUpdate === null ? null : rfc3339(list.nextUpdate),
    crlNumber: list.crlNumber,
    signatureAlgorithm: list.signatureAlgorithm,
    entries: list.entryCount,
    signature,
    stale: isStale(list, evaluatedAt),
    evaluatedAt: rfc3339(evaluatedAt),
    certificates: certificates.map((certificate, index) => {
      if (certificate.issuerNameKey !== list.issuerNameKey) {
        return {
          index,
          serialNumber: certificate.serialNumber,
          revoked: false,
          revocationDate: null,
          reason: OTHER_ISSUER_REASON,
        };
      }
      const entry = found.get(certificate.serialNumber);
      return {
        index,
        serialNumber: certificate.serialNumber,
        revoked: entry !== undefined,
        revocationDate: entry === undefined ? null : rfc3339(entry.revocationDate),
        reason: entry?.reason ?? null,
      };
    }),
  };
}

/** `nextUpdate` is before the instant of evaluation (a list without one never goes stale). */
export function isStale(list: RevocationListData, evaluatedAt: Date): boolean {
  return (
    list.nextUpdate !== null && list.nextUpdate.getTime() < Math.floor(evaluatedAt.getTime() / 1000) * 1000
  );
}

/**
 * The list's signature checked with `issuer`'s key. The SignatureVerifier port reads, of what it is
 * given, only the signed bytes, the signature's algorithm and value and whether the two algorithm
 * fields agree: a list hands over exactly those, as a request does (csr.ts). `unsupported` and
 * `unavailable` outcomes are `failed` here: an unchecked list must not be trusted.
 */
export async function checkListSignature(
  list: RevocationListData,
  issuer: CertificateData,
  verifier: SignatureVerifier,
): Promise<"verified" | "failed"> {
  const signed = {
    der: list.der,
    tbs: list.tbs,
    signatureParameters: list.signatureParameters,
    signatureValue: list.signatureValue,
    signatureAlgorithm: list.signatureAlgorithm,
    signatureAlgorithmOid: list.signatureAlgorithmOid,
    signatureAlgorithmsMatch: list.signatureAlgorithmsMatch,
  } satisfies Partial<CertificateData>;
  const check = await verifier.verify(signed as CertificateData, issuer);
  return check.outcome === "verified" ? "verified" : "failed";
}

/** The list read from `text`, or the located issues (path `["crl"]`) that say why not. */
export function readRevocationListPem(
  text: string,
  decoder: RevocationListDecoder,
  maxPemLength: number,
): { list: RevocationListData | null; issues: Issue[] } {
  const scan = scanPem(text, { maxBlocks: 1, maxPemLength }, CRL_PEM);
  const restate = (issue: Issue): Issue => ({
    ...issue,
    message: issue.message.startsWith("pem ") ? `crl ${issue.message.slice(4)}` : issue.message,
    path: ["crl"],
  });
  const issues = scan.issues.map(restate);
  const block = scan.blocks[0];
  if (block === undefined) return { list: null, issues };
  const decoded = decoder.decodeRevocationList(block.der);
  if (decoded.ok) return { list: decoded.list, issues };
  return {
    list: null,
    issues: [...issues, { message: NOT_A_CRL_MESSAGE, path: ["crl"], location: block.location }],
  };
}

/**
 * An RFC 3339 date-time read as CONTRACT §9.1 reads `at` (`instant.ts`, the one reader of it), or
 * null for anything else.
 */
export function parseInstant(text: string): Date | null {
  const reading = readInstant(text);
  return reading.ok ? reading.instant : null;
}

/** One CRL as the chain's revocation rule uses it: read, and named for the messages. */
export interface ChainRevocationList {
  list: RevocationListData;
  /** How messages name it: the file it came from. */
  name: string;
}

/** One path member, as the revocation rule needs it. */
export interface RevocationMember {
  /** Its bundle position. */
  index: number;
  certificate: CertificateData;
}

/**
 * `REVOKED` and `CRL_STALE` for the members of a path (CONTRACT §10.2): each member is looked up in
 * every list whose issuer is the member's issuer and whose signature was verified by the caller
 * (a list that does not verify is never used); self-issued members (roots) are not looked up. A stale list still says what it says: a member it
 * lists is `REVOKED`, and the list is `CRL_STALE` once, on the members it covers.
 */
export function revocationProblems(
  members: readonly RevocationMember[],
  lists: readonly ChainRevocationList[],
  evaluatedAt: Date,
): ChainProblem[] {
  const problems: ChainProblem[] = [];
  for (const { list, name } of lists) {
    // A self-issued member (the root) is the list's signer, not something it can revoke.
    const covered = members.filter(
      (member) =>
        member.certificate.issuerNameKey === list.issuerNameKey &&
        member.certificate.subjectNameKey !== member.certificate.issuerNameKey,
    );
    if (covered.length === 0) continue;
    const found = list.find(covered.map((member) => member.certificate.serialNumber));
    for (const member of covered) {
      const entry = found.get(member.certificate.serialNumber);
      if (entry === undefined) continue;
      const reason = entry.reason === null ? "no reason given" : `reason ${entry.reason}`;
      problems.push(
        problem(
          "REVOKED",
          [member.index],
          `${capitalize(certificateName(member.certificate, member.index))} (serial ${entry.serialNumber}) was revoked on ${rfc3339(entry.revocationDate)}, ${reason}, says ${name}.`,
          `Replace ${certificateName(member.certificate, member.index)} with a newly issued certificate: every client that checks revocation refuses it.`,
        ),
      );
    }
    if (isStale(list, evaluatedAt)) {
      problems.push(
        problem(
          "CRL_STALE",
          covered.map((member) => member.index),
          `The CRL ${name} (${list.issuer}) was due to be replaced at ${rfc3339(list.nextUpdate!)}, before ${rfc3339(evaluatedAt)}.`,
          "Fetch the CA's current CRL: a stale list may miss recent revocations.",
        ),
      );
    }
  }
  return problems;
}
