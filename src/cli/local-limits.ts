/**
 * Limits of a local `nettools cert` run (issue 13), larger than the API's 49,152-character PEM and
 * 16 certificates so that a system bundle such as /etc/ssl/certs/ca-certificates.crt (about
 * 220 KB, 150 certificates on Debian 12) can be inspected in-process.
 *
 * Not passed yet: the certificate use case still reads its limits from constants. Once
 * `inspectCertificateBundle` takes its limits as a parameter (the certificate-limits change in
 * src/domain/certificates/), `cert` in main.ts passes these in-process — and, as the CIDR commands
 * do for list lengths, checks the request against the API schema only in `--json` mode and only
 * when the PEM is within the API's limits. With `--server` the server's limits apply, as always.
 */
export const LOCAL_CERTIFICATE_LIMITS = {
  /** Longest PEM text, in characters: 4 MiB. */
  maxPemLength: 4 * 1024 * 1024,
  /** Most CERTIFICATE blocks; candidate issuer pairs grow with its square, so it stays in the hundreds. */
  maxCertificates: 500,
} as const;
