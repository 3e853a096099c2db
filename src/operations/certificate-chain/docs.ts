/**
 * The prose of POST /v1/certificate-chain for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { BUNDLE } from "../example-certificates.ts";

const leafMember = (index: number, expiresInDays: number) => ({
  index,
  subject: "CN=www.example.com",
  commonName: "www.example.com",
  notAfter: "2027-02-20T07:47:42Z",
  expiresInDays,
  caIssuersUrls: [],
  ocspUrls: [],
  notBefore: "2026-11-22T07:47:42Z",
  validityDays: 91,
  keyType: "EC",
  keyBits: 256,
  keyCurve: "P-256",
  signatureAlgorithm: "ecdsa-with-SHA256",
  publicKeySha256: "bbfab3f015108dc353e39da304b0c47ca24a85fffc610197f653bcc0e2bfeae8",
  extendedKeyUsage: ["serverAuth"],
  pathLenConstraint: null,
  sctCount: 0,
  crlUrls: [],
});

/** The issuing CA of BUNDLE as a path member. */
const issuingCaMember = (index: number, expiresInDays: number) => ({
  index,
  subject: "CN=Example Issuing CA E1,O=Example Trust,C=US",
  commonName: "Example Issuing CA E1",
  notAfter: "2031-11-21T07:47:42Z",
  expiresInDays,
  caIssuersUrls: [],
  ocspUrls: [],
  notBefore: "2026-11-22T07:47:42Z",
  validityDays: 1826,
  keyType: "EC",
  keyBits: 256,
  keyCurve: "P-256",
  signatureAlgorithm: "ecdsa-with-SHA256",
  publicKeySha256: "b93b2166ecb0eeee29941395e9e145e53d34a693682f474b41a9f48993e5f4d7",
  extendedKeyUsage: null,
  pathLenConstraint: 0,
  sctCount: 0,
  crlUrls: [],
});

/** The same two certificates, issuing CA first: the order nginx would serve wrongly. */
const MISORDERED = BUNDLE.replace(/^([\s\S]*?END CERTIFICATE-----\n)([\s\S]*)$/, "$2$1");

export const docs: OperationDoc = {
  summary: "Build and repair the chain a server should send",
  description:
    "Finds the path from the server's certificate to a trust anchor (in the bundle, a shipped root or your own `roots`), lists what is wrong with the bundle as a server would send it (order, missing or unneeded certificates, the root, expiry, the hostname or IP address) and what clients refuse on the path (no subjectAltName, extendedKeyUsage, weak RSA keys, SHA-1 signatures, validity limits, pathLen and name constraints, Certificate Transparency), each problem naming the clients that refuse it (chrome, firefox, apple, go, openssl), and returns the corrected `fullchainPem` to deploy. An observation, not a trust decision: no revocation, no network.",
  tag: "Certificates",
  resultDescription:
    "The path (positions, leaf first), its status, profile (webpki, private or unknown) and anchor, each member with days to expiry, validity, key, signature, extendedKeyUsage, pathLen, SCT count and its AIA and CRL URLs, the problems in the findings' order with the clients that refuse each, and fullchainPem: the path re-encoded in order, the root left out unless includeRoot. Never cached.",
  examples: {
    misordered: {
      summary: "Issuing CA first, leaf expiring in 9 days, root not supplied",
      request: { pem: MISORDERED, hostname: "www.example.com" },
      status: 200,
      response: {
        evaluatedAt: "2027-02-10T12:00:00Z",
        leafIndex: 1,
        path: [1, 0],
        status: "incomplete",
        profile: "unknown",
        anchor: {
          kind: "missing",
          subject: "CN=Example Root CA R1,O=Example Trust,C=US",
          caIssuersUrls: [],
        },
        certificates: [leafMember(1, 9), issuingCaMember(0, 1744)],
        problems: [
          {
            code: "INCOMPLETE_CHAIN",
            severity: "error",
            certificateIndexes: [0],
            observed:
              "The chain stops at certificate 0 (CN=Example Issuing CA E1): its issuer, CN=Example Root CA R1, is neither in the bundle nor a known or supplied root.",
            nextAction:
              "Add the certificate of CN=Example Root CA R1 right after certificate 0 (CN=Example Issuing CA E1); its CA publishes it, usually at the address in the Authority Information Access extension (if CN=Example Root CA R1 is a private root, supply it as a root instead).",
            clients: [],
          },
          {
            code: "WRONG_ORDER",
            severity: "error",
            certificateIndexes: [1, 0],
            observed:
              "Position 0 holds certificate 0 (CN=Example Issuing CA E1) instead of the server's own certificate, certificate 1 (CN=www.example.com): a server sends its first certificate as its own.",
            nextAction:
              "Serve the certificates in this order: certificate 1 (CN=www.example.com), then certificate 0 (CN=Example Issuing CA E1), as the corrected chain (fullchainPem) does.",
            clients: ["chrome", "firefox", "apple", "go", "openssl"],
          },
          {
            code: "EXPIRING",
            severity: "warning",
            certificateIndexes: [1],
            observed:
              "Certificate 1 (CN=www.example.com) expires in 9 days, at 2027-02-20T07:47:42Z (the warning starts 30 days before expiry).",
            nextAction: "Replace certificate 1 (CN=www.example.com) before 2027-02-20T07:47:42Z: renew it.",
            clients: [],
          },
        ],
        fullchainPem: BUNDLE,
      },
    },
    address: {
      summary: "An IP address checked against the leaf's IP SANs",
      request: { pem: BUNDLE, hostname: "192.0.2.10" },
      status: 200,
      response: {
        evaluatedAt: "2026-12-01T12:00:00Z",
        leafIndex: 0,
        path: [0, 1],
        status: "incomplete",
        profile: "unknown",
        anchor: {
          kind: "missing",
          subject: "CN=Example Root CA R1,O=Example Trust,C=US",
          caIssuersUrls: [],
        },
        certificates: [leafMember(0, 80), issuingCaMember(1, 1815)],
        problems: [
          {
            code: "HOSTNAME_MISMATCH",
            severity: "error",
            certificateIndexes: [0],
            observed:
              "Certificate 0 (CN=www.example.com) lists no IP addresses, so it does not cover 192.0.2.10.",
            nextAction: "Use a certificate issued for 192.0.2.10, or check the name the clients connect to.",
            clients: ["chrome", "firefox", "apple", "go", "openssl"],
          },
          {
            code: "INCOMPLETE_CHAIN",
            severity: "error",
            certificateIndexes: [1],
            observed:
              "The chain stops at certificate 1 (CN=Example Issuing CA E1): its issuer, CN=Example Root CA R1, is neither in the bundle nor a known or supplied root.",
            nextAction:
              "Add the certificate of CN=Example Root CA R1 right after certificate 1 (CN=Example Issuing CA E1); its CA publishes it, usually at the address in the Authority Information Access extension (if CN=Example Root CA R1 is a private root, supply it as a root instead).",
            clients: [],
          },
        ],
        fullchainPem: BUNDLE,
      },
    },
    badInstant: {
      summary: "An instant without an offset (CONTRACT §9.1: `at` needs Z or ±hh:mm)",
      request: { pem: BUNDLE, at: "2027-03-01T12:00:00" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            "at must be an RFC 3339 date-time with Z or a numeric offset (e.g. 2026-03-15T12:00:00Z), from 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z",
          issues: [
            {
              message:
                "at must be an RFC 3339 date-time with Z or a numeric offset (e.g. 2026-03-15T12:00:00Z), from 1950-01-01T00:00:00Z to 9999-12-31T23:59:59Z",
              path: ["at"],
            },
          ],
        },
      },
    },
    badAddress: {
      summary: "Digits and dots that are not an IPv4 address",
      request: { pem: BUNDLE, hostname: "192.0.2.256" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: "hostname is neither a DNS name nor a valid IPv4 address: octet 256 is above 255",
          issues: [
            {
              message: "hostname is neither a DNS name nor a valid IPv4 address: octet 256 is above 255",
              path: ["hostname"],
            },
          ],
        },
      },
    },
  },
};
