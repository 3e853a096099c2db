/**
 * Limits of a local `nettools cert` run (issue 13), larger than the API's 49,152-character PEM and
 * 16 certificates so that a system bundle such as /etc/ssl/certs/ca-certificates.crt (about
 * 220 KB, 150 certificates on Debian 12) can be inspected in-process.
 * `cert` passes them to the use case in-process, and, as the CIDR commands do for list lengths,
 * checks the request against the API schema only in `--json` mode and only when the PEM is within
 * the API's limits. With `--server` the server's limits apply, as always. Candidate issuers come
 * from a subject-name index, so the work grows with the links that exist, not with all pairs.
 */
export const LOCAL_CERTIFICATE_LIMITS = {
  /** Longest PEM text, in characters (and UTF-8 bytes): 4 MiB. */
  maxPemLength: 4 * 1024 * 1024,
  /** Most CERTIFICATE blocks. */
  maxBlocks: 500,
} as const;
