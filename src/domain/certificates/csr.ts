/**
 * The certification-request use case (CONTRACT §8.2): what a PKCS#10 request asks for (subject,
 * requested DNS and IP names, key), whether its self-signature holds, what a CA or a client would
 * refuse in it, and which of the given certificates hold its key.
 *
 * The request's PEM is read by the bundle's scanner with other labels (§4.1's rules, locations and
 * privacy); DER only through the CertificateDecoder port, the signature only through the
 * SignatureVerifier port. Identical input gives identical output: no clock is read.
 *
 * The problems are a plain table ({@link CSR_RULES}), in §8.1's code order, kept apart so that it
 * can join the chain verdict's rules unchanged.
 */
import { type Issue, invalidInput } from "../errors.ts";
import type { CertificateDecoder, SignatureOutcome, SignatureVerifier } from "../ports.ts";
import { readCertificateBlocks } from "./bundle.ts";
import { DATED_CONSTANTS } from "./dated-constants.ts";
import { DiagnosticCodes, type Severity } from "./diagnostics.ts";
import type { CertificateData } from "./model.ts";
import { DEFAULT_PEM_LIMITS, OUTSIDE_TEXT_MESSAGES, type PemKind, type PemLimits, scanPem } from "./pem.ts";
import type { CertificationRequestData } from "./request-model.ts";
import {
  CLIENTS,
  type Client,
  CSR_PROBLEM_CODES,
  type CsrProblemCode,
  RULES,
  severities,
} from "./rule-catalogue.ts";
import { capitalize, nameLabel } from "./wording.ts";

/** CsrRequest (CONTRACT §8.2), after the HTTP schema has checked the types. */
export interface CsrRequest {
  pem: string;
  certificatePem?: string | undefined;
}

export interface CsrDeps {
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
}

/** The clients and the request's codes come from the one rule catalogue (rule-catalogue.ts). */
export { CLIENTS, type Client, CSR_PROBLEM_CODES, type CsrProblemCode };

/** One entry of `problems`: a request has no certificate positions, so `certificateIndexes` is empty. */
export interface CsrProblem {
  code: CsrProblemCode;
  severity: Severity;
  certificateIndexes: number[];
  observed: string;
  nextAction: string;
  clients: Client[];
}

/** CsrResult (CONTRACT §8.2), field order as specified. */
export interface CsrResult {
  subject: string;
  commonName: string | null;
  subjectAltNames: { dns: string[]; ip: string[] };
  keyType: string;
  keyBits: number | null;
  keyCurve: string | null;
  publicKeySha256: string;
  signatureAlgorithm: string;
  signatureValid: SignatureOutcome;
  problems: CsrProblem[];
  matchesCertificate: boolean | null;
  matchingCertificateIndexes: number[] | null;
}

/** The PEM labels of a request (RFC 7468 §7; `NEW CERTIFICATE REQUEST` is what older tools wrote). */
export const REQUEST_LABELS = ["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"] as const;

/** Message of the issue for a block whose DER the decoder rejects (the decoder's reason is not echoed). */
export const NOT_A_REQUEST_MESSAGE = "this block is not one DER-encoded PKCS#10 certificate request";

const SED_REQUEST = "sed -n '/BEGIN CERTIFICATE REQUEST/,/END CERTIFICATE REQUEST/p' request.pem > clean.pem";

/** The request's `pem`: §4.1's rules with request labels, exactly one request block. */
export const REQUEST_PEM: PemKind = {
  labels: REQUEST_LABELS,
  accepted: "CERTIFICATE REQUEST",
  noBlockMessage: "pem contains no CERTIFICATE REQUEST block",
  outsideText: {
    ...OUTSIDE_TEXT_MESSAGES,
    binary:
      "binary data was pasted as text (a DER request, not PEM): convert it with openssl req -inform DER -in request.der -out request.pem and paste the PEM text",
    opensslText: `this is the readable text form of a request (openssl req -text output) around the block: keep only the BEGIN and END lines and what is between them, for example with ${SED_REQUEST}`,
    opensslAttributes: `these are openssl's description lines around the block: keep only the BEGIN and END lines and what is between them, for example with ${SED_REQUEST}`,
    base64WithoutBegin:
      "base64 lines stand outside any block: the BEGIN CERTIFICATE REQUEST line before them is missing",
  },
  labelAdvice: {
    CERTIFICATE:
      "a certificate is not a request, so give it as certificatePem to check that it holds the request's key",
    "PUBLIC KEY": "a public key alone is not a request, so give the request made with its private key",
  },
  counts: "accepted",
  tooManyMessage: () =>
    "pem takes exactly one certificate request; this is a second CERTIFICATE REQUEST block",
};

/**
 * Inspects one certification request (CONTRACT §8.2).
 *
 * @throws DomainError `INVALID_INPUT` with every issue found together: `pem` problems (located;
 *   none or a second request block, other labels, private keys, bad base64, DER that is not one
 *   request), then `certificatePem` problems (path `["certificatePem"]`, located, 1 to
 *   `limits.maxBlocks` CERTIFICATE blocks by the bundle's rules).
 */
export async function inspectCertificationRequest(
  request: CsrRequest,
  deps: CsrDeps,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<CsrResult> {
  const [read, certificates] = await Promise.all([
    readCertificationRequest(request.pem, deps.decoder, limits),
    request.certificatePem === undefined
      ? null
      : readCertificates(request.certificatePem, "certificatePem", deps.decoder, limits),
  ]);
  const issues = [...read.issues, ...(certificates?.issues ?? [])];
  if (issues.length > 0 || read.request === null) throw invalidInput(issues);
  const csr = read.request;

  const signatureValid = await checkSelfSignature(csr, deps.verifier);
  const matching =
    certificates === null
      ? null
      : certificates.certificates.flatMap((certificate, index) =>
          certificate.publicKeyKey === csr.publicKeyKey ? [index] : [],
        );
  return {
    subject: csr.subject,
    commonName: csr.commonName,
    subjectAltNames: requestedNames(csr),
    keyType: csr.keyType,
    keyBits: csr.keyBits,
    keyCurve: csr.keyCurve,
    publicKeySha256: csr.publicKeySha256,
    signatureAlgorithm: csr.signatureAlgorithm,
    signatureValid,
    problems: csrProblems(csr, signatureValid),
    matchesCertificate: matching === null ? null : matching.length > 0,
    matchingCertificateIndexes: matching,
  };
}

/** The request read from `pem`, or null with the located issues that say why not (path `["pem"]`). */
export interface ReadRequest {
  request: CertificationRequestData | null;
  issues: Issue[];
}

/**
 * Reads the one request of `pem` by §4.1's rules with {@link REQUEST_PEM}'s labels; a block the
 * decoder rejects is an issue located at it. Shared by the API and the CLI (`key-match -r`).
 */
export async function readCertificationRequest(
  pem: string,
  decoder: CertificateDecoder,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<ReadRequest> {
  const scan = scanPem(pem, { maxBlocks: 1, maxPemLength: limits.maxPemLength }, REQUEST_PEM);
  const block = scan.blocks[0];
  if (block === undefined) return { request: null, issues: scan.issues };
  const decoded = await decoder.decodeRequest(block.der);
  if (decoded.ok) return { request: decoded.request, issues: scan.issues };
  const issue: Issue = { message: NOT_A_REQUEST_MESSAGE, path: ["pem"], location: block.location };
  return { request: null, issues: sortByOffset([...scan.issues, issue]) };
}

/** Certificates read from a PEM field other than `pem`: the certificates, or every issue (path `[field]`). */
export interface ReadCertificates {
  certificates: CertificateData[];
  issues: Issue[];
}

/**
 * Reads CERTIFICATE blocks from the text of field `field` with the bundle's rules and limits
 * (CONTRACT §4.1: 1 to `maxBlocks` blocks, located issues). Each issue is restated for the field:
 * path `[field]`, and a message about `pem` names the field instead.
 */
export async function readCertificates(
  text: string,
  field: string,
  decoder: CertificateDecoder,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<ReadCertificates> {
  const { decoded, issues: found } = await readCertificateBlocks(text, decoder, limits);
  const issues = found.map((issue) => ({
    ...issue,
    message: issue.message.startsWith("pem ") ? `${field} ${issue.message.slice(4)}` : issue.message,
    path: [field],
  }));
  const certificates = decoded.flatMap((entry) =>
    entry.certificate === undefined ? [] : [entry.certificate],
  );
  return { certificates, issues };
}

function sortByOffset(issues: Issue[]): Issue[] {
  return issues.sort((a, b) => (a.location?.offset ?? Infinity) - (b.location?.offset ?? Infinity));
}

/**
 * The request's signature checked with its own key (RFC 2986 §3: proof that the requester holds
 * the private key). The SignatureVerifier port reads, of the certificate it is given, only the
 * signed bytes, the signature's algorithm and value, and the signer's `publicKey`: a request hands
 * over exactly those (a request has no inner signature algorithm, so the two always match).
 */
async function checkSelfSignature(
  csr: CertificationRequestData,
  verifier: SignatureVerifier,
): Promise<SignatureOutcome> {
  const signed = {
    der: csr.der,
    tbs: csr.tbs,
    signatureParameters: csr.signatureParameters,
    signatureValue: csr.signatureValue,
    signatureAlgorithm: csr.signatureAlgorithm,
    signatureAlgorithmOid: csr.signatureAlgorithmOid,
    signatureAlgorithmsMatch: true,
    publicKey: csr.publicKey,
    publicKeyKey: csr.publicKeyKey,
  } satisfies Partial<CertificateData>;
  const check = await verifier.verify(signed as CertificateData, signed as CertificateData);
  return check.outcome;
}

/** `subjectAltNames`: the requested `dns` and `ip` names in order; other name types are left out. */
function requestedNames(csr: CertificationRequestData): { dns: string[]; ip: string[] } {
  return {
    dns: csr.sans.filter((san) => san.type === "dns").map((san) => san.value),
    // An IP SAN of another length than 4 or 16 octets is no address (the reader writes it `#` + hex,
    // as a certificate's sans[] does): it is never given as address text.
    ip: csr.sans.filter((san) => san.type === "ip" && !san.value.startsWith("#")).map((san) => san.value),
  };
}

// ---------------------------------------------------------------------------------------------
// The rules that can be judged on a request (CONTRACT §8.2), one row each, in §8.1's code order.

/** What one rule sees: the decoded request, its self-check, and how sentences name it. */
export interface CsrFacts {
  request: CertificationRequestData;
  signatureValid: SignatureOutcome;
  /** `the request (CN=www.example.com)`, or `the request` for an empty subject. */
  name: string;
}

/**
 * One rule's request-side wording: what it observed (null when it does not apply) and advises. Its
 * severity and clients are its record in the catalogue.
 */
export interface CsrRule {
  code: CsrProblemCode;
  observe(facts: CsrFacts): string | null;
  nextAction(facts: CsrFacts): string;
}

const NEW_RSA_KEY =
  "Generate a new key of at least 2048 bits (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key) and make a new request with it.";

/** The key type of an RSASSA-PSS key (RFC 4055), which CONTRACT §8.1 names by its dotted OID. */
const RSASSA_PSS_KEY = "1.2.840.113549.1.1.10";

/**
 * The modulus bits of an RSA key, an RSASSA-PSS key included (the same modulus, restricted to one
 * padding), or null for any other key (CONTRACT §8.1 `RSA N bits`).
 */
function rsaBits(csr: CertificationRequestData): number | null {
  const rsa = csr.keyType === "RSA" || csr.keyType === RSASSA_PSS_KEY;
  return rsa && csr.keyBits !== null ? csr.keyBits : null;
}

/**
 * The CSR rules, in §8.1's code order. Severities and `clients` of the key and name rules are
 * §8.1's (judged with profile `unknown`: a request has no anchor); the two CSR codes name no client.
 */
export const CSR_RULES: readonly CsrRule[] = [
  {
    // Chrome 58, Apple HT210176 and Go 1.15 ignore the commonName: only subjectAltName names count.
    code: "NO_SUBJECT_ALT_NAME",
    observe: ({ request, name }) =>
      request.sans.some((san) => san.type === "dns" || san.type === "ip")
        ? null
        : `${capitalize(name)} asks for no DNS name or IP address in a subjectAltName; Chrome, Apple's clients and Go ignore the common name.`,
    nextAction: ({ request }) => {
      const host = request.commonName !== null && /^[A-Za-z0-9.*-]+$/.test(request.commonName);
      const san = host ? `DNS:${request.commonName}` : "DNS:www.example.com";
      return `Make a new request that lists every name of the server in subjectAltName, for example with openssl req -new -key server.key -addext "subjectAltName=${san}".`;
    },
  },
  {
    // Chromium IsWeakKey, Apple HT210176, Go 1.24 (rsa1024min), OpenSSL security level 1.
    code: "RSA_KEY_UNDER_1024",
    observe: ({ request, name }) => {
      const bits = rsaBits(request);
      return bits !== null && bits < 1024
        ? `${capitalize(name)} is for a key of RSA ${bits} bits, under the 1024 bits every client requires.`
        : null;
    },
    nextAction: () => NEW_RSA_KEY,
  },
  {
    // Apple HT210176, OpenSSL 3.2's default security level 2, CA/B Forum BR §6.1.5: 2048 bits at least.
    code: "RSA_KEY_UNDER_2048",
    observe: ({ request, name }) => {
      const bits = rsaBits(request);
      return bits !== null && bits >= 1024 && bits < 2048
        ? `${capitalize(name)} is for a key of RSA ${bits} bits; Apple's clients and public CAs require 2048 bits${bits < OPENSSL_LEVEL2_RSA_BITS ? ", and OpenSSL 3.2 and later refuse it" : ""}.`
        : null;
    },
    nextAction: () => NEW_RSA_KEY,
  },
  {
    code: "CSR_SIGNATURE_INVALID",
    observe: ({ signatureValid, name }) =>
      signatureValid === "failed"
        ? `The signature of ${name} does not verify with its own public key: it was changed after signing, or signed with another key.`
        : null,
    nextAction: () =>
      "Make the request again with the server's key (openssl req -new -key server.key …): a CA refuses a request whose signature fails.",
  },
  {
    code: "CSR_SIGNATURE_SHA1",
    observe: ({ request, name }) =>
      request.signatureUsesSha1
        ? `${capitalize(name)} is signed with SHA-1 (${request.signatureAlgorithm}); many CAs refuse such requests.`
        : null,
    nextAction: () =>
      "Sign the request with SHA-256 (openssl req -new -sha256 …); the certificate's own signature is the CA's choice either way.",
  },
];

const OPENSSL_LEVEL2_RSA_BITS = DATED_CONSTANTS.opensslLevel2RsaBits.value;

const CSR_PROBLEMS = new DiagnosticCodes<CsrProblemCode>(CSR_PROBLEM_CODES, severities(CSR_PROBLEM_CODES));

/** The problems of a request: every rule that applies, by severity, then in the table's code order. */
export function csrProblems(
  request: CertificationRequestData,
  signatureValid: SignatureOutcome,
): CsrProblem[] {
  const label = nameLabel(request.subject);
  const facts: CsrFacts = {
    request,
    signatureValid,
    name: label === null ? "the request" : `the request (${label})`,
  };
  const problems: CsrProblem[] = [];
  for (const rule of CSR_RULES) {
    const observed = rule.observe(facts);
    if (observed === null) continue;
    const clients = RULES[rule.code].clients.filter(
      // OpenSSL's level 2 counts 1963 bits and more as 112 bits of security (dated-constants.ts).
      (client) =>
        !(
          rule.code === "RSA_KEY_UNDER_2048" &&
          client === "openssl" &&
          (rsaBits(request) ?? 0) >= OPENSSL_LEVEL2_RSA_BITS
        ),
    );
    problems.push(
      CSR_PROBLEMS.make(rule.code, [], { observed, nextAction: rule.nextAction(facts), clients }),
    );
  }
  return CSR_PROBLEMS.sort(problems);
}
