/**
 * Documentation of POST /v1/csr for the OpenAPI document (assembled in ../docs.ts).
 * The requests and the certificate were made with openssl for these examples (ECDSA P-256 for
 * `www.example.com`, a self-signed certificate of the same key; an RSA 1024 request signed with
 * SHA-1); their keys were thrown away. No clock is involved: tests/docs/openapi.test.ts replays
 * every example against the running server and expects exactly the documented answer.
 */

import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

/** `openssl req -new -key www.key -subj /CN=www.example.com -addext subjectAltName=…`. */
const REQUEST = `${[
  "-----BEGIN CERTIFICATE REQUEST-----",
  "MIIBEDCBtgIBADAaMRgwFgYDVQQDDA93d3cuZXhhbXBsZS5jb20wWTATBgcqhkjO",
  "PQIBBggqhkjOPQMBBwNCAAQVA+nEPo8yGNrnIdcAArVUzQbOHX3cnQhWcm32ATNY",
  "658CNmnlyA9gJIyeO3KZOlp5PD0KQsf6SGWl8weXKXpCoDowOAYJKoZIhvcNAQkO",
  "MSswKTAnBgNVHREEIDAegg93d3cuZXhhbXBsZS5jb22CC2V4YW1wbGUuY29tMAoG",
  "CCqGSM49BAMCA0kAMEYCIQDSm/inKJ6WLirpBu76WYG0CZsMH63RxABo+VzVT9Sn",
  "nwIhAIEKDrM5GLS+S16KP7zxpYU4y+1AZ7+EGSJZ5vzNHOp9",
  "-----END CERTIFICATE REQUEST-----",
].join("\n")}\n`;

/** A self-signed certificate of the request's key (`openssl req -x509 -key www.key …`). */
const CERTIFICATE = `${[
  "-----BEGIN CERTIFICATE-----",
  "MIIBnTCCAUSgAwIBAgIDKhs9MAoGCCqGSM49BAMCMBoxGDAWBgNVBAMMD3d3dy5l",
  "eGFtcGxlLmNvbTAeFw0yNjExMjYxMTQ4MzZaFw0yNzAyMjQxMTQ4MzZaMBoxGDAW",
  "BgNVBAMMD3d3dy5leGFtcGxlLmNvbTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA",
  "BBUD6cQ+jzIY2uch1wACtVTNBs4dfdydCFZybfYBM1jrnwI2aeXID2AkjJ47cpk6",
  "Wnk8PQpCx/pIZaXzB5cpekKjeTB3MB0GA1UdDgQWBBSoEgwWJvzsYTp6pKqaxCLV",
  "1VZQBDAfBgNVHSMEGDAWgBSoEgwWJvzsYTp6pKqaxCLV1VZQBDAnBgNVHREEIDAe",
  "gg93d3cuZXhhbXBsZS5jb22CC2V4YW1wbGUuY29tMAwGA1UdEwEB/wQCMAAwCgYI",
  "KoZIzj0EAwIDRwAwRAIgZPO4AFWs8DQ7r8ZKFziwCyI0KhvhZgSVxpslkLKmafMC",
  "IF40rrZbd/klItPh+nRjsbF89vTEyUiH5EZAdFZ14lx9",
  "-----END CERTIFICATE-----",
].join("\n")}\n`;

/** An RSA 1024 request without subjectAltName, signed with SHA-1 (`openssl req -new -sha1 …`). */
const LEGACY_REQUEST = `${[
  "-----BEGIN CERTIFICATE REQUEST-----",
  "MIIBezCB5QIBADA8MQswCQYDVQQGEwJVUzEQMA4GA1UECgwHRXhhbXBsZTEbMBkG",
  "A1UEAwwSbGVnYWN5LmV4YW1wbGUuY29tMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCB",
  "iQKBgQDKyM/F89NvnwjwT2I6hAZMVtRd8sKv47LMDaGwQ1427cVB7ws+s91dqX6s",
  "ye1MQ2cG+hZ6sq77qcxl+PYboFLCldmcq0gW0CrFWCo3MT07TMRkNpWePIqtINON",
  "azlve8q9DKe491s2DVK+zMQbGhmU9G3josVR/3G60z0wl8c/gwIDAQABoAAwDQYJ",
  "KoZIhvcNAQEFBQADgYEAp24WZOJJcUsOt2nnWL3qjtpD5/gYb0EvLUi0Il5ZRlQh",
  "rxYemDgoBFsiWPyNd6bEONlQuwSr0x1DFb69nEx17bE//8f5lx14wNx4pjQApBq9",
  "NRNR/1GQGW55NgpGkNT6UPkT3lCSXi3I2uyEephvmB0Fco1h2XbEYFYcCwy7kuc=",
  "-----END CERTIFICATE REQUEST-----",
].join("\n")}\n`;

/** Stands for a key pasted by mistake: the label alone refuses it (never a real key in the docs). */
const KEY_BLOCK = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";

const invalid = (
  message: string,
  path: string,
  location?: { line: number; offset: number; end: number },
) => ({
  error: {
    code: "INVALID_INPUT",
    message,
    issues: [{ message, path: [path], ...(location === undefined ? {} : { location }) }],
  },
});

export const docs: OperationDoc = {
  summary: "Inspect a certificate signing request, and match it with certificates",
  description:
    "Reads one PKCS#10 request (PEM `CERTIFICATE REQUEST` or `NEW CERTIFICATE REQUEST`) by the bundle's PEM rules: its subject, the DNS names and IP addresses it asks for, its key, whether its self-signature verifies, what a CA or a client would refuse in it, and, with `certificatePem`, which certificates hold its key (SubjectPublicKeyInfo compared byte for byte). Private keys are refused, never read.",
  tag: "Certificates",
  resultDescription:
    "The request's fields, `signatureValid` (the request checked with its own key), the problems by severity in the chain verdict's code order (with the clients that refuse each), and the match with `certificatePem`: null without it. Never cached.",
  examples: {
    matching: {
      summary: "A P-256 request and a certificate of the same key",
      request: { pem: REQUEST, certificatePem: CERTIFICATE },
      status: 200,
      response: {
        subject: "CN=www.example.com",
        commonName: "www.example.com",
        subjectAltNames: { dns: ["www.example.com", "example.com"], ip: [] },
        keyType: "EC",
        keyBits: 256,
        keyCurve: "P-256",
        publicKeySha256: "ec1560de815274e3c567cd3414b084012dbfd20a843c163a0ce87336b5890ff6",
        signatureAlgorithm: "ecdsa-with-SHA256",
        signatureValid: "verified",
        problems: [],
        matchesCertificate: true,
        matchingCertificateIndexes: [0],
      },
    },
    legacy: {
      summary: "RSA 1024, no subjectAltName, signed with SHA-1",
      request: { pem: LEGACY_REQUEST },
      status: 200,
      response: {
        subject: "CN=legacy.example.com,O=Example,C=US",
        commonName: "legacy.example.com",
        subjectAltNames: {
          dns: [],
          ip: [],
        },
        keyType: "RSA",
        keyBits: 1024,
        keyCurve: null,
        publicKeySha256: "8ba4d3b3d5c654ff1d7f346854cf35882599b623968061fb22d16d5bdeb5c9d8",
        signatureAlgorithm: "sha1WithRSAEncryption",
        signatureValid: "verified",
        problems: [
          {
            code: "NO_SUBJECT_ALT_NAME",
            severity: "error",
            certificateIndexes: [],
            observed:
              "The request (CN=legacy.example.com) asks for no DNS name or IP address in a subjectAltName; Chrome, Apple's clients and Go ignore the common name.",
            nextAction:
              'Make a new request that lists every name of the server in subjectAltName, for example with openssl req -new -key server.key -addext "subjectAltName=DNS:legacy.example.com".',
            clients: ["chrome", "apple", "go"],
          },
          {
            code: "RSA_KEY_UNDER_2048",
            severity: "error",
            certificateIndexes: [],
            observed:
              "The request (CN=legacy.example.com) is for a key of RSA 1024 bits; Apple's clients and public CAs require 2048 bits, and OpenSSL 3.2 and later refuse it.",
            nextAction:
              "Generate a new key of at least 2048 bits (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key) and make a new request with it.",
            clients: ["apple", "openssl"],
          },
          {
            code: "CSR_SIGNATURE_SHA1",
            severity: "warning",
            certificateIndexes: [],
            observed:
              "The request (CN=legacy.example.com) is signed with SHA-1 (sha1WithRSAEncryption); many CAs refuse such requests.",
            nextAction:
              "Sign the request with SHA-256 (openssl req -new -sha256 …); the certificate's own signature is the CA's choice either way.",
            clients: [],
          },
        ],
        matchesCertificate: null,
        matchingCertificateIndexes: null,
      },
    },
    certificateGiven: {
      summary: "A certificate where the request goes",
      request: { pem: CERTIFICATE },
      status: 400,
      response: invalid(
        'PEM blocks labelled "CERTIFICATE" are not accepted; only CERTIFICATE REQUEST blocks are: a certificate is not a request, so give it as certificatePem to check that it holds the request\'s key',
        "pem",
        { line: 1, offset: 0, end: 618 },
      ),
    },
    privateKey: {
      summary: "A private key pasted with the request: refused, located, never echoed",
      request: { pem: KEY_BLOCK + REQUEST },
      status: 400,
      response: invalid("private key material is not accepted", "pem", { line: 1, offset: 0, end: 66 }),
    },
    // The queue's refusal is the same for every certificate operation: the bundle's example, with a request.
  },
};
