/**
 * The prose of POST /v1/certificate-bundle for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import { BUNDLE } from "../example-certificates.ts";

const CHAIN_RESULT = {
  evaluatedAt: "2026-12-01T12:00:00Z",
  certificates: [
    {
      index: 0,
      line: 1,
      subject: "CN=www.example.com",
      issuer: "CN=Example Issuing CA E1,O=Example Trust,C=US",
      commonName: "www.example.com",
      serialNumber: "2A1B3C",
      sans: [
        {
          type: "dns",
          value: "www.example.com",
        },
        {
          type: "dns",
          value: "example.com",
        },
      ],
      notBefore: "2026-11-22T07:47:42Z",
      notAfter: "2027-02-20T07:47:42Z",
      ca: false,
      basicConstraintsPresent: true,
      keyCertSign: false,
      fingerprintSha256:
        "3F:EF:2B:39:4C:50:86:61:2D:9C:7A:25:42:3E:24:A9:C6:0B:5A:C8:67:D4:FF:C4:7D:FA:22:A4:1C:10:95:0B",
      signatureAlgorithm: "ecdsa-with-SHA256",
      selfSignature: null,
    },
    {
      index: 1,
      line: 14,
      subject: "CN=Example Issuing CA E1,O=Example Trust,C=US",
      issuer: "CN=Example Root CA R1,O=Example Trust,C=US",
      commonName: "Example Issuing CA E1",
      serialNumber: "1001",
      sans: [],
      notBefore: "2026-11-22T07:47:42Z",
      notAfter: "2031-11-21T07:47:42Z",
      ca: true,
      basicConstraintsPresent: true,
      keyCertSign: true,
      fingerprintSha256:
        "E1:D7:FF:AE:52:39:DA:6B:4B:49:16:D0:A6:D4:50:C9:85:B7:1E:07:C9:F4:00:E6:66:94:2A:3D:88:CB:08:6D",
      signatureAlgorithm: "ecdsa-with-SHA256",
      selfSignature: null,
    },
  ],
  relationships: [
    {
      childIndex: 0,
      issuerIndex: 1,
      signature: "verified",
      issuerEligible: true,
      keyIdentifierMatch: true,
    },
  ],
  leafIndexes: [0],
  selectedLeafIndex: 0,
  hostname: {
    expected: "www.example.com",
    status: "matched",
  },
  findings: [
    {
      code: "HOSTNAME_MATCH",
      severity: "info",
      certificateIndexes: [0],
      observed: "Certificate 0 (CN=www.example.com) covers the hostname with one of its DNS subjectAltNames.",
      evidence: {
        hostname: "www.example.com",
        matchedName: "www.example.com",
      },
      nextAction: "No action is needed for the hostname.",
    },
    {
      code: "ISSUER_NOT_IN_BUNDLE",
      severity: "info",
      certificateIndexes: [1],
      observed:
        "Certificate 1 (CN=Example Issuing CA E1) was issued by CN=Example Root CA R1, no certificate in the bundle carries that name, and it is not a known root: an intermediate CA certificate is most likely missing.",
      evidence: {
        issuer: "CN=Example Root CA R1,O=Example Trust,C=US",
        issuerIsKnownRoot: false,
        caIssuersUrl: null,
      },
      nextAction:
        "Add the certificate of CN=Example Root CA R1 to the bundle right after certificate 1 (CN=Example Issuing CA E1); its CA publishes it, usually at the address in the Authority Information Access extension (if CN=Example Root CA R1 is a private root that every client already trusts, nothing needs adding).",
    },
  ],
};

export const docs: OperationDoc = {
  summary: "Inspect a PEM certificate bundle",
  description:
    "Reports every certificate, every candidate issuer link with its signature outcome, possible leaves, an optional hostname check and findings. An observation, not RFC 5280 path validation.",
  tag: "Certificates",
  resultDescription:
    "Every certificate in input order, every candidate issuer link with its signature outcome, the possible leaves, the hostname check and the findings. An observation, not RFC 5280 path validation, a trust decision or revocation checking. Never cached.",
  examples: {
    chain: {
      summary: "A leaf and its issuing CA, hostname matched",
      request: { pem: BUNDLE, hostname: "www.example.com" },
      status: 200,
      response: CHAIN_RESULT,
    },
    hostnameMismatch: {
      summary: "The same bundle for a name it does not cover",
      request: { pem: BUNDLE, hostname: "shop.example.org" },
      status: 200,
      response: {
        ...CHAIN_RESULT,
        hostname: {
          expected: "shop.example.org",
          status: "mismatched",
        },
        findings: [
          {
            code: "HOSTNAME_MISMATCH",
            severity: "error",
            certificateIndexes: [0],
            observed:
              "None of the 2 DNS subjectAltNames of certificate 0 (CN=www.example.com) matches the hostname; it covers www.example.com and example.com.",
            evidence: {
              hostname: "shop.example.org",
              dnsNameCount: 2,
            },
            nextAction:
              "Reissue certificate 0 (CN=www.example.com) with the hostname among its DNS subjectAltNames, or check that the right certificate is deployed; the Common Name is not used.",
          },
          {
            code: "ISSUER_NOT_IN_BUNDLE",
            severity: "info",
            certificateIndexes: [1],
            observed:
              "Certificate 1 (CN=Example Issuing CA E1) was issued by CN=Example Root CA R1, no certificate in the bundle carries that name, and it is not a known root: an intermediate CA certificate is most likely missing.",
            evidence: {
              issuer: "CN=Example Root CA R1,O=Example Trust,C=US",
              issuerIsKnownRoot: false,
              caIssuersUrl: null,
            },
            nextAction:
              "Add the certificate of CN=Example Root CA R1 to the bundle right after certificate 1 (CN=Example Issuing CA E1); its CA publishes it, usually at the address in the Authority Information Access extension (if CN=Example Root CA R1 is a private root that every client already trusts, nothing needs adding).",
          },
        ],
      },
    },
    hostnameIsUrl: {
      summary: "A URL where a hostname is required",
      request: { pem: BUNDLE, hostname: "https://www.example.com/" },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: "hostname must be a bare DNS name, not a URL",
          issues: [
            {
              message: "hostname must be a bare DNS name, not a URL",
              path: ["hostname"],
            },
          ],
        },
      },
    },
    textOutsideBlocks: {
      summary: "Text before the first block, located without echoing it",
      request: { pem: `subject=CN = www.example.com\n${BUNDLE}` },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message:
            "these are openssl's description lines (subject, issuer or Bag Attributes) around the block: keep only the BEGIN and END blocks, every one of them, for example with sed -n '/BEGIN CERTIFICATE/,/END CERTIFICATE/p' cert.pem > clean.pem",
          issues: [
            {
              message:
                "these are openssl's description lines (subject, issuer or Bag Attributes) around the block: keep only the BEGIN and END blocks, every one of them, for example with sed -n '/BEGIN CERTIFICATE/,/END CERTIFICATE/p' cert.pem > clean.pem",
              path: ["pem"],
              location: {
                line: 1,
                offset: 0,
                end: 28,
              },
            },
          ],
        },
      },
    },
  },
};
