/**
 * CONTRACT §8.1 rule by rule over fake certificates: the code table (order, severities, profiles,
 * clients), every boundary (dates inclusive, sizes, days), the profile, pathLen and name
 * constraints on the path actually built, and the §7.1 codes' clients. Properties compare
 * validityDays and the dNSName rule with slow, obvious models.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildCertificateChain, type CertificateChainRequest } from "../../src/domain/certificates/chain.ts";
import { type Client, PROBLEM_CODES, PROBLEM_RULES } from "../../src/domain/certificates/chain-problems.ts";
import { validityDays } from "../../src/domain/certificates/client-rules.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { dnsWithin } from "../../src/domain/certificates/name-constraints.ts";
import { bundleOf, type CertSpec, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const NOW = "2026-01-01T00:00:00Z";
const ALL: Client[] = ["chrome", "firefox", "apple", "go", "openssl"];

const root = makeCertificate({
  subject: "CN=Root",
  ca: true,
  subjectKeyIdentifier: "AA",
  notBefore: "2010-01-01T00:00:00Z",
  notAfter: "2040-01-01T00:00:00Z",
});
const intSpec: CertSpec = {
  subject: "CN=Int",
  issuer: "CN=Root",
  ca: true,
  subjectKeyIdentifier: "BB",
  authorityKeyIdentifier: "AA",
  notBefore: "2010-01-01T00:00:00Z",
  notAfter: "2040-01-01T00:00:00Z",
};
/** A leaf every client accepts: SAN, serverAuth, EC P-256, SHA-256, 90 days, two SCTs. */
const leafSpec: CertSpec = {
  subject: "CN=www.example.com",
  issuer: "CN=Int",
  authorityKeyIdentifier: "BB",
  sans: ["www.example.com"],
  notBefore: "2025-12-01T00:00:00Z",
  notAfter: "2026-02-28T23:59:59Z",
};

interface Run extends Omit<CertificateChainRequest, "pem"> {
  /** How the root is known: supplied (private, the default), a reference root (webpki), or not at all. */
  anchor?: "supplied" | "reference" | "none";
  now?: string;
}

async function judge(certificates: CertificateData[], options: Run = {}) {
  const { anchor = "supplied", now, ...request } = options;
  return buildCertificateChain(
    {
      pem: bundleOf(certificates),
      ...(anchor === "supplied" ? { roots: bundleOf([root]) } : {}),
      ...request,
    },
    {
      clock: fixedClock(now ?? NOW),
      decoder: fakeDecoder([...certificates, root]),
      verifier: scriptedVerifier(),
      roots: fakeRootStore(anchor === "reference" ? [root] : []),
    },
  );
}

/** A bundle that carries its own anchor: nothing supplied; `known` are the reference roots. */
function inBundle(certificates: CertificateData[], known: CertificateData[] = []) {
  return buildCertificateChain(
    { pem: bundleOf(certificates) },
    {
      clock: fixedClock(NOW),
      decoder: fakeDecoder(certificates),
      verifier: scriptedVerifier(),
      roots: fakeRootStore(known),
    },
  );
}

/** The problems of leaf ← Int ← Root with the leaf and Int changed as given. */
async function chainOf(leaf: Partial<CertSpec>, int: Partial<CertSpec> = {}, options: Run = {}) {
  return judge([makeCertificate({ ...leafSpec, ...leaf }), makeCertificate({ ...intSpec, ...int })], options);
}
const codesOf = (result: { problems: { code: string; certificateIndexes: number[] }[] }) =>
  result.problems.map((p) => `${p.code}[${p.certificateIndexes.join(",")}]`);

describe("the code table (CONTRACT §8.1)", () => {
  test("the code order, severities, profiles and default clients", () => {
    expect(PROBLEM_CODES.join(" ")).toBe(
      "INCOMPLETE_CHAIN WRONG_ORDER EXPIRED NOT_YET_VALID HOSTNAME_MISMATCH NO_SUBJECT_ALT_NAME " +
        "EKU_LACKS_SERVER_AUTH EKU_ABSENT EKU_NOT_SERVER_AUTH_ONLY RSA_KEY_UNDER_1024 RSA_KEY_UNDER_2048 " +
        "SHA1_SIGNATURE VALIDITY_OVER_825_DAYS VALIDITY_OVER_398_DAYS PATH_LENGTH_EXCEEDED " +
        "NAME_CONSTRAINTS_VIOLATED CA_EKU_LACKS_SERVER_AUTH UNKNOWN_CRITICAL_EXTENSION EC_CURVE_NOT_ACCEPTED " +
        "ROOT_DISTRUSTED_FOR_NEW_CERTS EXPIRING VALIDITY_OVER_BR_LIMIT NO_EMBEDDED_SCTS TOO_FEW_EMBEDDED_SCTS " +
        "UNNEEDED_CERTIFICATE DUPLICATE_CERTIFICATE " +
        "LEAF_SELECTION_REQUIRED NO_LEAF_CERTIFICATE ROOT_INCLUDED REVOKED CRL_STALE",
    );
    const table = Object.fromEntries(
      Object.entries(PROBLEM_RULES).map(([code, r]) => [
        code,
        `${r.severity} ${r.profile} ${r.clients.join(",")}`,
      ]),
    );
    expect(table).toEqual({
      INCOMPLETE_CHAIN: "error any ",
      WRONG_ORDER: "error any chrome,firefox,apple,go,openssl",
      EXPIRED: "error any chrome,firefox,apple,go,openssl",
      NOT_YET_VALID: "error any chrome,firefox,apple,go,openssl",
      HOSTNAME_MISMATCH: "error any chrome,firefox,apple,go,openssl",
      NO_SUBJECT_ALT_NAME: "error any chrome,apple,go",
      EKU_LACKS_SERVER_AUTH: "error any chrome,firefox,apple,go,openssl",
      EKU_ABSENT: "error any apple",
      RSA_KEY_UNDER_1024: "error any chrome,apple,go,openssl",
      EKU_NOT_SERVER_AUTH_ONLY: "warning webpki ",
      RSA_KEY_UNDER_2048: "error any apple,openssl",
      SHA1_SIGNATURE: "error any chrome,apple,go,openssl",
      VALIDITY_OVER_825_DAYS: "error any apple",
      VALIDITY_OVER_398_DAYS: "error webpki chrome,apple",
      PATH_LENGTH_EXCEEDED: "error any chrome,firefox,go,openssl",
      NAME_CONSTRAINTS_VIOLATED: "error any chrome,firefox,go,openssl",
      EXPIRING: "warning any ",
      CA_EKU_LACKS_SERVER_AUTH: "error any chrome,firefox,apple,go,openssl",
      UNKNOWN_CRITICAL_EXTENSION: "error any chrome,firefox,apple,go,openssl",
      EC_CURVE_NOT_ACCEPTED: "error any chrome,firefox,apple,go,openssl",
      ROOT_DISTRUSTED_FOR_NEW_CERTS: "error webpki chrome,firefox",
      VALIDITY_OVER_BR_LIMIT: "error webpki chrome",
      NO_EMBEDDED_SCTS: "warning webpki chrome,firefox,apple",
      TOO_FEW_EMBEDDED_SCTS: "warning webpki chrome,firefox,apple",
      UNNEEDED_CERTIFICATE: "warning any ",
      DUPLICATE_CERTIFICATE: "warning any ",
      LEAF_SELECTION_REQUIRED: "warning any ",
      NO_LEAF_CERTIFICATE: "warning any ",
      ROOT_INCLUDED: "info any ",
      REVOKED: "error any chrome,firefox,apple,go,openssl",
      CRL_STALE: "warning any ",
    });
  });

  test("§7.1's codes name every client for EXPIRED, NOT_YET_VALID, HOSTNAME_MISMATCH and WRONG_ORDER as an error, none otherwise", async () => {
    const leaf = makeCertificate({ ...leafSpec, notAfter: "2025-12-31T00:00:00Z" });
    const int = makeCertificate(intSpec);
    const misordered = await judge([int, leaf], { hostname: "other.example.com" });
    const clients: Record<string, string[]> = Object.fromEntries(
      misordered.problems.map((p) => [p.code, p.clients]),
    );
    expect(clients).toEqual({ WRONG_ORDER: ALL, EXPIRED: ALL, HOSTNAME_MISMATCH: ALL });
    const incomplete = await judge([makeCertificate(leafSpec), int], { anchor: "none" });
    expect(incomplete.problems.map((p) => [p.code, p.clients])).toEqual([["INCOMPLETE_CHAIN", []]]);
    const warning = await judge([makeCertificate(leafSpec), root, int], { anchor: "none" });
    expect(warning.problems.find((p) => p.code === "WRONG_ORDER")).toMatchObject({
      severity: "warning",
      clients: [],
    });
  });
});

describe("profile", () => {
  test("webpki under a reference root, private under a supplied one, unknown when incomplete or without path", async () => {
    expect((await chainOf({}, {}, { anchor: "reference" })).profile).toBe("webpki");
    expect((await chainOf({})).profile).toBe("private");
    expect((await chainOf({}, {}, { anchor: "none" })).profile).toBe("unknown");
    const twoLeaves = await judge([
      makeCertificate(leafSpec),
      makeCertificate({ ...leafSpec, variant: "b" }),
    ]);
    expect([twoLeaves.status, twoLeaves.profile]).toEqual(["ambiguous", "unknown"]);
  });

  test("an in-bundle self-signed anchor is webpki only when byte-equal to a reference root", async () => {
    const int = makeCertificate(intSpec);
    const leaf = makeCertificate({ ...leafSpec, notAfter: "2027-01-01T00:00:00Z" });
    // With the root known, the path ends at Int (known-root): the anchor kind decides.
    expect((await inBundle([leaf, int, root], [root])).profile).toBe("webpki");
    // A reference root of the same name and key id but other bytes (and key): not the bundle's root.
    const sameNameOther = makeCertificate({
      subject: "CN=Root",
      ca: true,
      subjectKeyIdentifier: "AA",
      key: "other",
    });
    const alone = await inBundle([leaf, int, root], [sameNameOther]);
    expect([alone.anchor!.kind, alone.profile]).toEqual(["in-bundle", "private"]);
  });

  test("webpki-only codes never under private or unknown; any-profile codes under unknown too", async () => {
    const long = { notBefore: "2026-03-15T00:00:00Z", notAfter: "2027-12-31T00:00:00Z", sctCount: 0 };
    const now = "2026-04-01T00:00:00Z";
    expect(codesOf(await chainOf(long, {}, { anchor: "reference", now }))).toEqual([
      "VALIDITY_OVER_398_DAYS[0]",
      "VALIDITY_OVER_BR_LIMIT[0]",
      "NO_EMBEDDED_SCTS[0]",
    ]);
    expect(codesOf(await chainOf(long, {}, { now }))).toEqual([]);
    expect(codesOf(await chainOf({ ...long, sans: [] }, {}, { anchor: "none", now }))).toEqual([
      "NO_SUBJECT_ALT_NAME[0]",
      "INCOMPLETE_CHAIN[1]",
    ]);
  });
});

describe("leaf rules: names, usage, dates", () => {
  test("NO_SUBJECT_ALT_NAME: no dns and no ip SAN; an ip SAN alone is enough; other types are not", async () => {
    expect(codesOf(await chainOf({ sans: [] }))).toEqual(["NO_SUBJECT_ALT_NAME[0]"]);
    expect(codesOf(await chainOf({ sans: [{ type: "email", value: "a@example.com" }] }))).toEqual([
      "NO_SUBJECT_ALT_NAME[0]",
    ]);
    expect(codesOf(await chainOf({ sans: [{ type: "ip", value: "192.0.2.1" }] }))).toEqual([]);
    const problem = (await chainOf({ sans: [] })).problems[0]!;
    expect(problem.clients).toEqual(["chrome", "apple", "go"]);
    expect(problem.nextAction).toStartWith("Reissue certificate 0 (CN=www.example.com)");
  });

  test("EKU_LACKS_SERVER_AUTH lists every purpose; anyExtendedKeyUsage leaves apple and openssl", async () => {
    const lacking = (await chainOf({ extendedKeyUsage: ["clientAuth", "1.2.3.4"] })).problems[0]!;
    expect([lacking.code, lacking.clients]).toEqual(["EKU_LACKS_SERVER_AUTH", ALL]);
    expect(lacking.observed).toContain("clientAuth, 1.2.3.4");
    const any = (await chainOf({ extendedKeyUsage: ["anyExtendedKeyUsage"] })).problems[0]!;
    expect(any.clients).toEqual(["apple", "openssl"]);
    expect(codesOf(await chainOf({ extendedKeyUsage: ["clientAuth", "serverAuth"] }))).toEqual([]);
    expect(codesOf(await chainOf({ extendedKeyUsage: [] }))).toEqual(["EKU_LACKS_SERVER_AUTH[0]"]);
  });

  test("EKU_ABSENT from notBefore 2019-07-01T00:00:00Z inclusive", async () => {
    const at = (notBefore: string) =>
      chainOf(
        { extendedKeyUsage: null, notBefore, notAfter: "2019-09-01T00:00:00Z" },
        {},
        { now: "2019-08-01T00:00:00Z" },
      );
    expect(codesOf(await at("2019-07-01T00:00:00Z"))).toEqual(["EKU_ABSENT[0]"]);
    expect(codesOf(await at("2019-06-30T23:59:59Z"))).toEqual([]);
  });

  test("validity: 825 days from 2019-07-01 (any profile), 398 from 2020-09-01 (webpki), both inclusive", async () => {
    const leafFor = (notBefore: string, days: number) => ({
      sctCount: 3,
      notBefore,
      notAfter: new Date(Date.parse(notBefore) + days * 86_400_000 - 1000).toISOString().replace(".000", ""),
    });
    const at = async (notBefore: string, days: number, anchor: Run["anchor"] = "supplied") =>
      codesOf(await chainOf(leafFor(notBefore, days), {}, { anchor, now: notBefore }));
    expect(await at("2019-07-01T00:00:00Z", 826)).toEqual(["VALIDITY_OVER_825_DAYS[0]"]);
    expect(await at("2019-07-01T00:00:00Z", 825)).toEqual([]);
    expect(await at("2019-06-30T23:59:59Z", 826)).toEqual([]);
    expect(await at("2020-09-01T00:00:00Z", 399, "reference")).toEqual(["VALIDITY_OVER_398_DAYS[0]"]);
    expect(await at("2020-09-01T00:00:00Z", 398, "reference")).toEqual([]);
    expect(await at("2020-08-31T23:59:59Z", 399, "reference")).toEqual([]);
    expect(await at("2020-09-01T00:00:00Z", 399)).toEqual([]);
    // One leaf may raise all three (judged independently).
    expect(await at("2026-03-15T00:00:00Z", 900, "reference")).toEqual([
      "VALIDITY_OVER_825_DAYS[0]",
      "VALIDITY_OVER_398_DAYS[0]",
      "VALIDITY_OVER_BR_LIMIT[0]",
    ]);
  });

  test("VALIDITY_OVER_BR_LIMIT: the tightest limit by notBefore (200, 100, 47 days), Chrome's error (CONTRACT §9.5)", async () => {
    const at = async (notBefore: string, days: number) => {
      const notAfter = new Date(Date.parse(notBefore) + days * 86_400_000 - 1000)
        .toISOString()
        .replace(".000", "");
      const leaf = { notBefore, notAfter, sctCount: 3 };
      return (await chainOf(leaf, {}, { anchor: "reference", now: notBefore })).problems;
    };
    expect(await at("2026-03-14T23:59:59Z", 201)).toEqual([]);
    expect(await at("2026-03-15T00:00:00Z", 200)).toEqual([]);
    const over = (await at("2026-03-15T00:00:00Z", 201))[0]!;
    expect([over.code, over.severity, over.clients]).toEqual(["VALIDITY_OVER_BR_LIMIT", "error", ["chrome"]]);
    expect(over.observed).toContain("validity 201 days");
    expect(over.observed).toContain("200 days");
    expect((await at("2027-03-15T00:00:00Z", 101))[0]!.observed).toContain("100 days");
    expect(await at("2027-03-15T00:00:00Z", 100)).toEqual([]);
    expect((await at("2029-03-15T00:00:00Z", 48))[0]!.observed).toContain("47 days");
    expect(await at("2029-03-15T00:00:00Z", 47)).toEqual([]);
  });

  test("validityDays is ceil((notAfter − notBefore + 1 s) / 86400 s) (property against integer arithmetic)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 400_000_000 }),
        (start, length) => {
          const notBefore = new Date(start * 1000);
          const notAfter = new Date((start + length) * 1000);
          const seconds = BigInt(length) + 1n;
          const model = Number((seconds + 86_399n) / 86_400n);
          expect(validityDays({ notBefore, notAfter })).toBe(model);
        },
      ),
    );
    const openssl398 = {
      notBefore: new Date("2020-09-01T00:00:00Z"),
      notAfter: new Date("2021-10-05T00:00:00Z"),
    };
    expect(validityDays(openssl398)).toBe(400);
  });

  test("NO_EMBEDDED_SCTS under webpki when sctCount is 0", async () => {
    expect(codesOf(await chainOf({ sctCount: 0 }, {}, { anchor: "reference" }))).toEqual([
      "NO_EMBEDDED_SCTS[0]",
    ]);
    // One SCT is not none: TOO_FEW_EMBEDDED_SCTS says what is missing (CONTRACT §9.5).
    expect(codesOf(await chainOf({ sctCount: 1 }, {}, { anchor: "reference" }))).toEqual([
      "TOO_FEW_EMBEDDED_SCTS[0]",
    ]);
  });
});

describe("keys and signatures on every member", () => {
  test("RSA under 1024 and 1024–2047, never both; RSASSA-PSS keys are RSA keys; other types never", async () => {
    const rsa = (bits: number, keyType = "RSA") => chainOf({}, { keyType, keyBits: bits, keyCurve: null });
    expect(codesOf(await rsa(1023))).toEqual(["RSA_KEY_UNDER_1024[1]"]);
    expect(codesOf(await rsa(1024))).toEqual(["RSA_KEY_UNDER_2048[1]"]);
    expect(codesOf(await rsa(2047, "1.2.840.113549.1.1.10"))).toEqual(["RSA_KEY_UNDER_2048[1]"]);
    expect(codesOf(await rsa(2048))).toEqual([]);
    expect(codesOf(await chainOf({}, { keyType: "DSA", keyBits: 512 }))).toEqual([]);
    const weak = (await rsa(512)).problems[0]!;
    expect(weak.observed).toContain("RSA 512 bits");
    expect(weak.nextAction).toStartWith("Replace certificate 1 (CN=Int)");
  });

  test("SHA1_SIGNATURE on every member but the in-bundle anchor; its clients by profile", async () => {
    const sha1 = { signatureDigest: "SHA-1", signatureAlgorithm: "sha1WithRSAEncryption" };
    expect(codesOf(await chainOf(sha1, sha1))).toEqual(["SHA1_SIGNATURE[0]", "SHA1_SIGNATURE[1]"]);
    const pss = (await chainOf({ signatureDigest: "SHA-1", signatureAlgorithm: "rsassaPss" })).problems[0]!;
    expect(pss.observed).toContain("rsassaPss with SHA-1");
    expect(pss.clients).toEqual(["chrome", "apple", "go", "openssl"]);
    expect((await chainOf(sha1, {}, { anchor: "reference" })).problems[0]!.clients).toEqual(ALL);
    const sha1Root = makeCertificate({
      subject: "CN=Root",
      ca: true,
      subjectKeyIdentifier: "AA",
      ...sha1,
      keyType: "RSA",
      keyBits: 1024,
    });
    const leaf = makeCertificate(leafSpec);
    const int = makeCertificate(intSpec);
    const result = await inBundle([leaf, int, sha1Root]);
    // The anchor's signature is never judged; its key is.
    expect(codesOf(result)).toEqual(["RSA_KEY_UNDER_2048[2]", "ROOT_INCLUDED[2]"]);
  });
});

describe("pathLen and name constraints on the path built", () => {
  /** leaf ← CA1 ← CA2 ← … ← Root, CA k with the given spec changes. */
  async function deep(cas: Partial<CertSpec>[], leaf: Partial<CertSpec> = {}) {
    const names = cas.map((_, k) => `CN=CA${k + 1}`);
    const certificates = [
      makeCertificate({ ...leafSpec, issuer: names[0]!, authorityKeyIdentifier: null, ...leaf }),
      ...cas.map((spec, k) =>
        makeCertificate({
          subject: names[k]!,
          issuer: names[k + 1] ?? "CN=Root",
          ca: true,
          authorityKeyIdentifier: k + 1 < cas.length ? null : "AA",
          ...spec,
        }),
      ),
    ];
    return judge(certificates);
  }

  test("PATH_LENGTH_EXCEEDED: more non-self-issued CAs between it and the leaf than pathLenConstraint", async () => {
    expect(codesOf(await deep([{}, { pathLenConstraint: 0 }]))).toEqual(["PATH_LENGTH_EXCEEDED[2]"]);
    expect(codesOf(await deep([{}, { pathLenConstraint: 1 }]))).toEqual([]);
    expect(codesOf(await deep([{}, {}, { pathLenConstraint: 1 }]))).toEqual(["PATH_LENGTH_EXCEEDED[3]"]);
    expect(codesOf(await deep([{ pathLenConstraint: 0 }]))).toEqual([]);
    const problem = (await deep([{}, {}, { pathLenConstraint: 1 }])).problems[0]!;
    expect(problem.observed).toContain("pathLenConstraint 1");
    expect(problem.observed).toContain("2 CA certificates stand between it and certificate 0");
    expect(problem.clients).toEqual(["chrome", "firefox", "go", "openssl"]);
  });

  test("a self-issued CA between does not count (RFC 5280 §6.1.4 (l))", async () => {
    // CA1 is a key rollover of CA2: issuer and subject both CN=CA2, signed by CA2's key.
    const leaf = makeCertificate({ ...leafSpec, issuer: "CN=CA2", key: "leaf", signedBy: "rollover" });
    const rollover = makeCertificate({
      subject: "CN=CA2",
      issuer: "CN=CA2",
      ca: true,
      key: "rollover",
      signedBy: "key:CN=CA2",
    });
    const ca2 = makeCertificate({
      subject: "CN=CA2",
      issuer: "CN=Root",
      ca: true,
      pathLenConstraint: 0,
      authorityKeyIdentifier: "AA",
    });
    const result = await judge([leaf, rollover, ca2]);
    expect(result.path).toEqual([0, 1, 2]);
    expect(codesOf(result)).toEqual([]);
  });

  test("NAME_CONSTRAINTS_VIOLATED: the first violating dns or ip SAN, on [leaf, CA]; the anchor's own name Chromium, Go and OpenSSL (CONTRACT §9.4, ADR 0046)", async () => {
    const constrained = { nameConstraints: { permitted: { dns: ["example.com"], ip: ["10.0.0.0/8"] } } };
    const at = (sans: CertSpec["sans"]) => chainOf({ sans }, constrained);
    expect(codesOf(await at(["www.example.com", { type: "ip", value: "10.1.2.3" }]))).toEqual([]);
    const dns = (await at(["www.example.com", "www.example.org"])).problems[0]!;
    expect([dns.code, dns.certificateIndexes, dns.clients]).toEqual([
      "NAME_CONSTRAINTS_VIOLATED",
      [0, 1],
      ["chrome", "firefox", "go", "openssl"],
    ]);
    expect(dns.observed).toContain("www.example.org");
    expect((await at([{ type: "ip", value: "192.0.2.1" }])).problems[0]!.observed).toContain("192.0.2.1");
    // An IPv4-mapped SAN is 16 octets: it meets no IPv4 subtree, so a permitted IPv4 list refuses it.
    expect(codesOf(await at([{ type: "ip", value: "::ffff:10.1.2.3" }]))).toEqual([
      "NAME_CONSTRAINTS_VIOLATED[0,1]",
    ]);
    const anchor = makeCertificate({
      subject: "CN=Root",
      ca: true,
      subjectKeyIdentifier: "AA",
      nameConstraints: { permitted: { dns: ["example.org"] } },
    });
    const leaf = makeCertificate(leafSpec);
    const int = makeCertificate(intSpec);
    const result = await inBundle([leaf, int, anchor]);
    expect(result.problems.find((p) => p.code === "NAME_CONSTRAINTS_VIOLATED")).toMatchObject({
      certificateIndexes: [0, 2],
      clients: ["chrome", "go", "openssl"],
    });
  });

  test("excluded subtrees; a leading dot means proper subdomains; an empty base every name", async () => {
    const with_ = (permitted: string[], excluded: string[], san: string) =>
      chainOf(
        { sans: [san] },
        { nameConstraints: { permitted: { dns: permitted }, excluded: { dns: excluded } } },
      );
    expect(codesOf(await with_([], ["bad.example.com"], "x.bad.example.com"))).toEqual([
      "NAME_CONSTRAINTS_VIOLATED[0,1]",
    ]);
    expect(codesOf(await with_([], ["bad.example.com"], "notbad.example.com"))).toEqual([]);
    expect(codesOf(await with_([".example.com"], [], "example.com"))).toEqual([
      "NAME_CONSTRAINTS_VIOLATED[0,1]",
    ]);
    expect(codesOf(await with_([".example.com"], [], "a.example.com"))).toEqual([]);
    expect(codesOf(await with_(["EXAMPLE.com"], [], "A.Example.COM"))).toEqual([]);
    expect(codesOf(await with_([], [""], "anything.test"))).toEqual(["NAME_CONSTRAINTS_VIOLATED[0,1]"]);
  });

  test("dnsWithin against a label model (fast-check)", () => {
    const label = fc.constantFrom("a", "b", "ex", "com", "A");
    const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));
    fc.assert(
      fc.property(name, name, fc.boolean(), (host, base, dot) => {
        const h = host.toLowerCase().split(".");
        const b = base.toLowerCase().split(".");
        const suffix = h.length >= b.length && h.slice(h.length - b.length).join(".") === b.join(".");
        const model = dot ? suffix && h.length > b.length : suffix;
        expect(dnsWithin(host, dot ? `.${base}` : base)).toBe(model);
      }),
    );
  });

  test("no path, no client rule: an ambiguous bundle of bad leaves raises none", async () => {
    const bad = { sans: [], extendedKeyUsage: ["clientAuth"] };
    const result = await judge([
      makeCertificate({ ...leafSpec, ...bad }),
      makeCertificate({ ...leafSpec, ...bad, variant: "b" }),
    ]);
    expect(codesOf(result)).toEqual(["LEAF_SELECTION_REQUIRED[0,1]"]);
  });
});
