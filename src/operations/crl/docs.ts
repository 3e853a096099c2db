/**
 * Documentation of POST /v1/crl for the OpenAPI document (assembled in ../docs.ts).
 * A private CA made with `openssl ca` for these examples (ECDSA P-256): `old.example.com` (serial
 * 1001) revoked for keyCompromise, `www.example.com` (serial 1002) not, and the list written by
 * `openssl ca -gencrl`; the keys were thrown away. Every example names its instant (`at`), so the
 * answers hold whenever tests/docs/openapi.test.ts replays them against the running server.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

/** The CA's own certificate (`CN=Example Private CA`). */
const CA = `${[
  "-----BEGIN CERTIFICATE-----",
  "MIIBujCCAWCgAwIBAgIUZCW8ONArX4iitd02uO4dK/pB5FUwCgYIKoZIzj0EAwIw",
  "OzEbMBkGA1UEAwwSRXhhbXBsZSBQcml2YXRlIENBMRwwGgYDVQQKDBNOZXR3b3Jr",
  "IFRvb2xzIFRlc3RzMB4XDTI2MTEyODIwMDg0NVoXDTI2MTIyODIwMDg0NVowOzEb",
  "MBkGA1UEAwwSRXhhbXBsZSBQcml2YXRlIENBMRwwGgYDVQQKDBNOZXR3b3JrIFRv",
  "b2xzIFRlc3RzMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE/YP1OoKchGID4V6l",
  "4h6gEpgKgvI/tPWy2xdDlQ8QJFYvsRHcb13p3t/MPe8k4xGw1Tr4K1dlVbgYd6nH",
  "7AMdgaNCMEAwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0O",
  "BBYEFOGGqyZ2vN/oqCCPsAkYVjEEp8ZAMAoGCCqGSM49BAMCA0gAMEUCIQCzKNMv",
  "GqAvb+q8YH4VN6QKOPog1wpxg+CBpPWJJh12dgIgCCMHcRm672h5qXZSQN5IOEGd",
  "G1ydNmTCdP0O5mmr6W8=",
  "-----END CERTIFICATE-----",
].join("\n")}\n`;

/** `CN=old.example.com`, serial 1001: revoked. */
const REVOKED_LEAF = `${[
  "-----BEGIN CERTIFICATE-----",
  "MIIBkTCCATigAwIBAgICEAEwCgYIKoZIzj0EAwIwOzEbMBkGA1UEAwwSRXhhbXBs",
  "ZSBQcml2YXRlIENBMRwwGgYDVQQKDBNOZXR3b3JrIFRvb2xzIFRlc3RzMB4XDTI2",
  "MTEyODIwMDg0NVoXDTI3MDIyNjIwMDg0NVowGjEYMBYGA1UEAwwPb2xkLmV4YW1w",
  "bGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQ+2SxRj96+k9GjkG4pGF",
  "JfbMg9Bb2h/EI50GX5BmTacVqqJaqfZLI+eJ5P/IwVlCMsLiGTnT+PCvEWfVwzPn",
  "yqNNMEswCQYDVR0TBAIwADAdBgNVHQ4EFgQUGrKkgUOxqeBltdMgaB7N/38otIcw",
  "HwYDVR0jBBgwFoAU4YarJna83+ioII+wCRhWMQSnxkAwCgYIKoZIzj0EAwIDRwAw",
  "RAIgNWrFuRoAJZvuWnNN/USpA3WOkqQ+eGQP3/ZtLGoLyikCIFSa+WOxxhCvR/7C",
  "lFOVFLo7bangrrlJLBO2dOqKAOfr",
  "-----END CERTIFICATE-----",
].join("\n")}\n`;

/** `CN=www.example.com`, serial 1002: not revoked. */
const GOOD_LEAF = `${[
  "-----BEGIN CERTIFICATE-----",
  "MIIBkjCCATigAwIBAgICEAIwCgYIKoZIzj0EAwIwOzEbMBkGA1UEAwwSRXhhbXBs",
  "ZSBQcml2YXRlIENBMRwwGgYDVQQKDBNOZXR3b3JrIFRvb2xzIFRlc3RzMB4XDTI2",
  "MTEyODIwMDg0NVoXDTI3MDIyNjIwMDg0NVowGjEYMBYGA1UEAwwPd3d3LmV4YW1w",
  "bGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAERIZQ0HBUyABaS5FKVP7m",
  "V/XG/gOWYmqw0vTFj5UlcoZvd+UG43A2HdL2t+Rk4FKJrXeV+ZtfedrC1Qvjcee1",
  "oKNNMEswCQYDVR0TBAIwADAdBgNVHQ4EFgQUXS+mmnOLJB2ff6niXgbbicUIgGMw",
  "HwYDVR0jBBgwFoAU4YarJna83+ioII+wCRhWMQSnxkAwCgYIKoZIzj0EAwIDSAAw",
  "RQIgGwBp5Q7PtH8MyP/0W9WIuKl4B3P7G9cw4rgcnqi98poCIQCWOO+xS3ScwNZ8",
  "iDHpMLgvAtT7OIn5lI9Qc+Bq7/y2gA==",
  "-----END CERTIFICATE-----",
].join("\n")}\n`;

/** `openssl ca -gencrl`: one entry (1001, keyCompromise), cRLNumber 4096, next update a week later. */
const CRL = `${[
  "-----BEGIN X509 CRL-----",
  "MIH5MIGgAgEBMAoGCCqGSM49BAMCMDsxGzAZBgNVBAMMEkV4YW1wbGUgUHJpdmF0",
  "ZSBDQTEcMBoGA1UECgwTTmV0d29yayBUb29scyBUZXN0cxcNMjYxMTI4MjAwODQ1",
  "WhcNMjYxMjA1MjAwODQ1WjAjMCECAhABFw0yNjExMjgyMDA4NDVaMAwwCgYDVR0V",
  "BAMKAQGgDzANMAsGA1UdFAQEAgIQADAKBggqhkjOPQQDAgNIADBFAiB6ATzNZNLD",
  "l8PX6ZfkybQx90O34QZnMjXJE8Y3chlQbgIhAMO6TBOfmhKCjumxuTKp1s9IZw8N",
  "dWsviF+xx7MU1Lcp",
  "-----END X509 CRL-----",
].join("\n")}\n`;

const ISSUER = "O=Network Tools Tests,CN=Example Private CA";
const LIST_FACTS = {
  issuer: ISSUER,
  thisUpdate: "2026-11-28T20:08:45Z",
  nextUpdate: "2026-12-05T20:08:45Z",
  crlNumber: "4096",
  signatureAlgorithm: "ecdsa-with-SHA256",
  entries: 1,
};

const WRONG_ISSUER =
  "issuerPem is not the CA that issued this list: its subject differs from the list's issuer";

export const docs: OperationDoc = {
  summary: "Read a certificate revocation list offline, and look certificates up in it",
  description:
    "Reads one CRL (PEM `X509 CRL`, by the bundle's PEM rules; the reader is as strict as the certificate reader): its issuer, dates, number and size; with `issuerPem`, whether the CA's key verifies it; with `certificatePem`, whether each certificate is listed, when and why. Nothing is fetched from the network. Lists over 49,152 characters: `nettools crl` reads them locally, PEM or DER, of any size.",
  tag: "Certificates",
  resultDescription:
    "The list's facts, `signature` (`not-checked` without `issuerPem`), `stale` (its nextUpdate has passed at `evaluatedAt`) and one lookup per given certificate. A certificate of another issuer is never `revoked`: its `reason` says the list cannot speak for it. Never cached.",
  examples: {
    revoked: {
      summary: "A revoked and a valid certificate, the list checked with its CA",
      request: {
        crl: CRL,
        issuerPem: CA,
        certificatePem: REVOKED_LEAF + GOOD_LEAF,
        at: "2026-12-01T00:00:00Z",
      },
      status: 200,
      response: {
        ...LIST_FACTS,
        signature: "verified",
        stale: false,
        evaluatedAt: "2026-12-01T00:00:00Z",
        certificates: [
          {
            index: 0,
            serialNumber: "1001",
            revoked: true,
            revocationDate: "2026-11-28T20:08:45Z",
            reason: "keyCompromise",
          },
          { index: 1, serialNumber: "1002", revoked: false, revocationDate: null, reason: null },
        ],
      },
    },
    stale: {
      summary: "The same list a month later: stale (at with an offset, answered in UTC)",
      request: { crl: CRL, at: "2027-01-01T09:30:00+02:00" },
      status: 200,
      response: {
        ...LIST_FACTS,
        signature: "not-checked",
        stale: true,
        evaluatedAt: "2027-01-01T07:30:00Z",
        certificates: [],
      },
    },
    wrongIssuer: {
      summary: "A leaf given as the issuer: its subject is not the list's issuer",
      request: { crl: CRL, issuerPem: GOOD_LEAF },
      status: 400,
      response: {
        error: {
          code: "INVALID_INPUT",
          message: WRONG_ISSUER,
          issues: [{ message: WRONG_ISSUER, path: ["issuerPem"] }],
        },
      },
    },
  },
};
