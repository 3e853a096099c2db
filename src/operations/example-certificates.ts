/**
 * The certificates of the certificate operations' examples: a real leaf and its issuing CA (ECDSA
 * P-256, made with openssl for these examples; the root stays out, as usual). Every result shown
 * with them is exactly what the service answers at the example's `evaluatedAt`:
 * tests/docs/openapi.test.ts replays each one with a clock fixed there.
 */

/** `www.example.com` issued by "Example Issuing CA E1", then that CA's certificate. */
export const BUNDLE = `${[
  "-----BEGIN CERTIFICATE-----",
  "MIIB8DCCAZagAwIBAgIDKhs8MAoGCCqGSM49BAMCMEUxCzAJBgNVBAYTAlVTMRYw",
  "FAYDVQQKDA1FeGFtcGxlIFRydXN0MR4wHAYDVQQDDBVFeGFtcGxlIElzc3Vpbmcg",
  "Q0EgRTEwHhcNMjYxMTIyMDc0NzQyWhcNMjcwMjIwMDc0NzQyWjAaMRgwFgYDVQQD",
  "DA93d3cuZXhhbXBsZS5jb20wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARG/5SV",
  "gignYIetPnkZ8FEqZi23hFJEMevH6HbM4ANex2T7GD47PY1m27laOP1AeV98rntL",
  "aVjPdPx92T6x1W6do4GfMIGcMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeA",
  "MBMGA1UdJQQMMAoGCCsGAQUFBwMBMCcGA1UdEQQgMB6CD3d3dy5leGFtcGxlLmNv",
  "bYILZXhhbXBsZS5jb20wHQYDVR0OBBYEFLVTHi4veoXNTQiF7L2HfIdPiqiGMB8G",
  "A1UdIwQYMBaAFNhvSbY/41OXH5ht3ooyAQT6by4/MAoGCCqGSM49BAMCA0gAMEUC",
  "IQDPdG3otFQSiBJvNefH6HBmyCYz5a8xItRs/a9MS5SOhwIgSW3JKLDv1wcXPihy",
  "2TDgWUhUWfNCZKztpNg5TOOO6fc=",
  "-----END CERTIFICATE-----",
  "-----BEGIN CERTIFICATE-----",
  "MIIB3TCCAYOgAwIBAgICEAEwCgYIKoZIzj0EAwIwQjELMAkGA1UEBhMCVVMxFjAU",
  "BgNVBAoMDUV4YW1wbGUgVHJ1c3QxGzAZBgNVBAMMEkV4YW1wbGUgUm9vdCBDQSBS",
  "MTAeFw0yNjExMjIwNzQ3NDJaFw0zMTExMjEwNzQ3NDJaMEUxCzAJBgNVBAYTAlVT",
  "MRYwFAYDVQQKDA1FeGFtcGxlIFRydXN0MR4wHAYDVQQDDBVFeGFtcGxlIElzc3Vp",
  "bmcgQ0EgRTEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASvKB6AeLZ/VpGanuHV",
  "xxlu5NlH8GjqBxGhYzvne1pY4KzGUpyuptN1bI3u3cdDangnuUD7tCvNIS32vjmi",
  "k4VCo2YwZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBBjAdBgNV",
  "HQ4EFgQU2G9Jtj/jU5cfmG3eijIBBPpvLj8wHwYDVR0jBBgwFoAUXh/rAg1cavnF",
  "Orcbo+6Pwn4AXnIwCgYIKoZIzj0EAwIDSAAwRQIhAOukiS46oT+GQvyKT4wasIyN",
  "BA1T2Y+aSMLi0rovk28UAiAt2lKrLqx4E98uz6+PEhID1Ey2iOfTKtoD39iHi+E/",
  "7Q==",
  "-----END CERTIFICATE-----",
].join("\n")}\n`;
