/**
 * CONTRACT §9.3–§9.5 over fake certificates, under both profiles (webpki: a fake reference store
 * holding the test root; private: the same root supplied): the path clients accept is the one
 * answered, the whole path judged (EKU chaining, critical extensions, curves, name constraints over
 * every certificate below a constrained CA and every form, supplied roots named by `suppliedRoot`),
 * the rules as of late 2026 (distrust through `RootStore.distrustOf`, SCT counts, serverAuth only,
 * lifetime-relative EXPIRING), the catalogue's shape, and the dated constants' age.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildCertificateChain, type CertificateChainRequest } from "../../src/domain/certificates/chain.ts";
import { expiryThreshold } from "../../src/domain/certificates/chain-problems.ts";
import {
  DATED_CONSTANTS,
  MAX_VERIFICATION_AGE_DAYS,
  newestVerification,
} from "../../src/domain/certificates/dated-constants.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { emailWithin, uriHost } from "../../src/domain/certificates/name-constraints.ts";
import {
  CHAIN_PROBLEM_CODES,
  CSR_PROBLEM_CODES,
  dependsOnPath,
  FINDING_CODES,
  RULES,
} from "../../src/domain/certificates/rule-catalogue.ts";
import type { RootDistrust, RootStore } from "../../src/domain/ports.ts";
import { bundleOf, type CertSpec, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const NOW = "2026-06-01T00:00:00Z";
const rootSpec: CertSpec = {
  subject: "CN=Root",
  ca: true,
  subjectKeyIdentifier: "AA",
  notBefore: "2010-01-01T00:00:00Z",
  notAfter: "2040-01-01T00:00:00Z",
};
const intSpec: CertSpec = {
  subject: "CN=Int",
  issuer: "CN=Root",
  ca: true,
  subjectKeyIdentifier: "BB",
  authorityKeyIdentifier: "AA",
  notBefore: "2010-01-01T00:00:00Z",
  notAfter: "2040-01-01T00:00:00Z",
};
/** A leaf every client accepts: 90 days, two SCTs, serverAuth only. */
const leafSpec: CertSpec = {
  subject: "CN=www.example.com",
  issuer: "CN=Int",
  authorityKeyIdentifier: "BB",
  sans: ["www.example.com"],
  notBefore: "2026-05-01T00:00:00Z",
  notAfter: "2026-07-29T23:59:59Z",
};

type Anchor = "supplied" | "reference";

interface Run extends Omit<CertificateChainRequest, "pem"> {
  anchor?: Anchor;
  now?: string;
  root?: CertificateData;
  distrust?: RootDistrust;
}

/** The chain of `certificates` under the root, supplied (private) or in a fake reference store (webpki). */
async function judge(certificates: CertificateData[], options: Run = {}) {
  const { anchor = "supplied", now, root = makeCertificate(rootSpec), distrust, ...request } = options;
  const store = fakeRootStore(anchor === "reference" ? [root] : []);
  const roots: RootStore =
    distrust === undefined ? store : { ...store, distrustOf: (der) => (der === root.der ? distrust : null) };
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
      roots,
    },
  );
}

async function chainOf(leaf: Partial<CertSpec>, int: Partial<CertSpec> = {}, options: Run = {}) {
  return judge([makeCertificate({ ...leafSpec, ...leaf }), makeCertificate({ ...intSpec, ...int })], options);
}
const codesOf = (result: { problems: { code: string; certificateIndexes: number[] }[] }) =>
  result.problems.map((p) => `${p.code}[${p.certificateIndexes.join(",")}]`);
const BOTH: Anchor[] = ["supplied", "reference"];

describe("the catalogue (issue 29 item 7)", () => {
  test("every selection names catalogue records; the new §9 codes stand where the contract puts them", () => {
    for (const code of [...CHAIN_PROBLEM_CODES, ...CSR_PROBLEM_CODES, ...FINDING_CODES]) {
      expect(RULES[code].sources.length).toBeGreaterThan(0);
      for (const source of RULES[code].sources) expect(source.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const order = CHAIN_PROBLEM_CODES.join(" ");
    expect(order).toContain(
      "NAME_CONSTRAINTS_VIOLATED CA_EKU_LACKS_SERVER_AUTH UNKNOWN_CRITICAL_EXTENSION EC_CURVE_NOT_ACCEPTED ROOT_DISTRUSTED_FOR_NEW_CERTS",
    );
    expect(order).toContain("EKU_ABSENT EKU_NOT_SERVER_AUTH_ONLY");
    expect(order).toContain("NO_EMBEDDED_SCTS TOO_FEW_EMBEDDED_SCTS");
  });

  test("the rules that judge the leaf alone do not rank paths (CONTRACT §9.3); the others do", () => {
    const leafOnly = CHAIN_PROBLEM_CODES.filter((code) => !dependsOnPath(code));
    expect(leafOnly).toEqual([
      "HOSTNAME_MISMATCH",
      "NO_SUBJECT_ALT_NAME",
      "EKU_LACKS_SERVER_AUTH",
      "EKU_ABSENT",
      "EKU_NOT_SERVER_AUTH_ONLY",
      "VALIDITY_OVER_825_DAYS",
      "VALIDITY_OVER_398_DAYS",
      "VALIDITY_OVER_BR_LIMIT",
      "NO_EMBEDDED_SCTS",
      "TOO_FEW_EMBEDDED_SCTS",
    ]);
  });

  test("the dated constants were verified within the last 180 days of the clock (CONTRACT §9.5)", () => {
    const ageDays = (Date.now() - newestVerification()) / 86_400_000;
    expect(ageDays).toBeLessThanOrEqual(MAX_VERIFICATION_AGE_DAYS);
    // The check can fail: a table verified long ago is stale.
    const stale = { old: { value: 1, source: "https://example.test", verified: "2000-01-01" } };
    expect((Date.now() - newestVerification(stale)) / 86_400_000).toBeGreaterThan(MAX_VERIFICATION_AGE_DAYS);
    for (const entry of Object.values(DATED_CONSTANTS)) expect(entry.source).toMatch(/^https:\/\//);
  });
});

describe("the path clients would build (CONTRACT §9.3)", () => {
  test("of two routes to the root, the one without a path-dependent error wins, and fullchainPem writes it", async () => {
    const leaf = makeCertificate({ ...leafSpec, authorityKeyIdentifier: null });
    const sha1Int = makeCertificate({
      ...intSpec,
      subjectKeyIdentifier: null,
      signatureDigest: "SHA-1",
      variant: "sha1",
      key: "key:CN=Int",
    });
    const cleanInt = makeCertificate({
      ...intSpec,
      subjectKeyIdentifier: null,
      variant: "clean",
      key: "key:CN=Int",
    });
    for (const anchor of BOTH) {
      const result = await judge([leaf, sha1Int, cleanInt], { anchor });
      expect(result.path).toEqual([0, 2]);
      expect(result.fullchainPem).toBe(bundleOf([leaf, cleanInt]));
      expect(codesOf(result)).toEqual(["UNNEEDED_CERTIFICATE[1]"]);
    }
    // A name-constrained intermediate that refuses the leaf's name loses to an unconstrained one too.
    const constrained = makeCertificate({
      ...intSpec,
      subjectKeyIdentifier: null,
      variant: "nc",
      key: "key:CN=Int",
      nameConstraints: { permitted: { dns: ["example.org"] } },
    });
    expect((await judge([leaf, constrained, cleanInt])).path).toEqual([0, 2]);
    // With no clean route, the lowest positions still decide among equally bad ones.
    expect((await judge([leaf, sha1Int, constrained])).path).toEqual([0, 1]);
  });

  test("a supplied root's own errors rank the path that ends at it", async () => {
    const leaf = makeCertificate({ ...leafSpec, issuer: "CN=Root", authorityKeyIdentifier: null });
    const expiredRoot = makeCertificate({
      ...rootSpec,
      subjectKeyIdentifier: null,
      notAfter: "2020-01-01T00:00:00Z",
    });
    const validRoot = makeCertificate({ ...rootSpec, subjectKeyIdentifier: null, variant: "renewed" });
    const result = await buildCertificateChain(
      { pem: bundleOf([leaf]), roots: bundleOf([expiredRoot, validRoot]) },
      {
        clock: fixedClock(NOW),
        decoder: fakeDecoder([leaf, expiredRoot, validRoot]),
        verifier: scriptedVerifier(),
        roots: fakeRootStore(),
      },
    );
    // The supplied roots are tried in order; the first whose key verifies ends the path: both
    // share the key, so the first answers, and it is judged.
    expect(result.problems.map((p) => [p.code, p.suppliedRoot?.index])).toEqual([["EXPIRED", 0]]);
  });
});

describe("the whole path judged (CONTRACT §9.4)", () => {
  test("CA_EKU_LACKS_SERVER_AUTH on an intermediate restricted to other purposes, under both profiles", async () => {
    for (const anchor of BOTH) {
      const restricted = await chainOf({}, { extendedKeyUsage: ["emailProtection"] }, { anchor });
      const problem = restricted.problems.find((p) => p.code === "CA_EKU_LACKS_SERVER_AUTH")!;
      expect([problem.certificateIndexes, problem.severity, problem.clients]).toEqual([
        [1],
        "error",
        ["chrome", "firefox", "apple", "go", "openssl"],
      ]);
      expect(problem.observed).toContain("emailProtection");
      for (const allowed of [["serverAuth", "clientAuth"], ["anyExtendedKeyUsage"], null])
        expect(codesOf(await chainOf({}, { extendedKeyUsage: allowed }, { anchor }))).toEqual([]);
    }
  });

  test("a supplied root is judged like an in-bundle anchor and named by suppliedRoot", async () => {
    const root = makeCertificate({
      ...rootSpec,
      extendedKeyUsage: ["codeSigning"],
      keyType: "RSA",
      keyBits: 1024,
    });
    const result = await chainOf({}, {}, { root });
    expect(result.problems.map((p) => [p.code, p.certificateIndexes, p.suppliedRoot, p.clients])).toEqual([
      ["RSA_KEY_UNDER_2048", [], { index: 0, subject: "CN=Root" }, ["apple", "openssl"]],
      ["CA_EKU_LACKS_SERVER_AUTH", [], { index: 0, subject: "CN=Root" }, ["go", "openssl"]],
    ]);
    expect(result.problems[0]!.observed).toStartWith("Your own root 0 (CN=Root) has a key of RSA 1024 bits");
    // The same root as a reference root is not judged (its curators judge it).
    expect(codesOf(await chainOf({}, {}, { root, anchor: "reference" }))).toEqual([]);
    // Expired supplied root: EXPIRED with no bundle position.
    const old = makeCertificate({ ...rootSpec, notAfter: "2026-01-01T00:00:00Z" });
    const expired = (await chainOf({}, {}, { root: old })).problems[0]!;
    expect([expired.code, expired.certificateIndexes, expired.suppliedRoot]).toEqual([
      "EXPIRED",
      [],
      { index: 0, subject: "CN=Root" },
    ]);
    // Other problems carry no suppliedRoot at all (the field is absent, not null).
    expect(Object.keys((await chainOf({ sans: [] })).problems[0]!)).not.toContain("suppliedRoot");
  });

  test("UNKNOWN_CRITICAL_EXTENSION on any member or the supplied root; processed ones pass", async () => {
    for (const anchor of BOTH) {
      const leaf = await chainOf({ criticalExtensions: ["1.2.3.4", "2.5.29.19"] }, {}, { anchor });
      expect(codesOf(leaf)).toEqual(["UNKNOWN_CRITICAL_EXTENSION[0]"]);
      expect(leaf.problems[0]!.observed).toContain("1.2.3.4");
      expect(leaf.problems[0]!.observed).not.toContain("2.5.29.19");
      const int = await chainOf({}, { criticalExtensions: ["1.3.6.1.5.5.7.1.1"] }, { anchor });
      expect(codesOf(int)).toEqual(["UNKNOWN_CRITICAL_EXTENSION[1]"]);
    }
    const processed = [
      "2.5.29.15",
      "2.5.29.17",
      "2.5.29.19",
      "2.5.29.30",
      "2.5.29.31",
      "2.5.29.32",
      "2.5.29.37",
    ];
    expect(codesOf(await chainOf({ criticalExtensions: processed }))).toEqual([]);
    const root = makeCertificate({ ...rootSpec, criticalExtensions: ["2.5.29.35"] });
    expect(codesOf(await chainOf({}, {}, { root }))).toEqual(["UNKNOWN_CRITICAL_EXTENSION[]"]);
  });

  test("EC_CURVE_NOT_ACCEPTED names the clients that refuse the curve", async () => {
    const curve = async (keyCurve: string, keyBits: number) =>
      (await chainOf({ keyCurve, keyBits })).problems.find((p) => p.code === "EC_CURVE_NOT_ACCEPTED")
        ?.clients ?? [];
    expect(await curve("P-256", 256)).toEqual([]);
    expect(await curve("P-384", 384)).toEqual([]);
    expect(await curve("P-521", 521)).toEqual([]);
    expect(await curve("secp224r1", 224)).toEqual(["chrome", "firefox"]);
    expect(await curve("prime192v1", 192)).toEqual(["chrome", "firefox", "go", "openssl"]);
    expect(await curve("secp256k1", 256)).toEqual(["chrome", "firefox", "go"]);
    expect(await curve("brainpoolP256r1", 256)).toEqual(["chrome", "firefox", "go"]);
    for (const anchor of BOTH)
      expect(codesOf(await chainOf({}, { keyCurve: "secp256k1" }, { anchor }))).toEqual([
        "EC_CURVE_NOT_ACCEPTED[1]",
      ]);
  });

  test("name constraints constrain every certificate below, in every form", async () => {
    const nc = (permitted: CertSpec["nameConstraints"]) => ({ nameConstraints: permitted });
    const first = async (leaf: Partial<CertSpec>, int: Partial<CertSpec>, options: Run = {}) =>
      (await chainOf(leaf, int, options)).problems.find((p) => p.code === "NAME_CONSTRAINTS_VIOLATED");
    // The root's constraints reach the intermediate's own names (below it), not only the leaf's.
    const root = makeCertificate({ ...rootSpec, nameConstraints: { excluded: { dns: ["bad.test"] } } });
    const intWithSan = { sans: ["ca.bad.test"] };
    const viaRoot = await first({}, intWithSan, { root });
    expect([viaRoot?.certificateIndexes, viaRoot?.suppliedRoot?.index, viaRoot?.clients]).toEqual([
      [1],
      0,
      ["chrome", "go", "openssl"],
    ]);
    // rfc822Name: a mailbox, a host, a domain.
    const mail = (value: string) => ({ sans: ["www.example.com", { type: "email", value }] });
    expect(await first(mail("a@example.com"), nc({ permitted: { email: ["example.com"] } }))).toBeUndefined();
    expect(
      (await first(mail("a@other.com"), nc({ permitted: { email: ["example.com"] } })))?.observed,
    ).toContain("a@other.com");
    // URI by host; a URI without a host violates any URI constraint.
    const uri = (value: string) => ({ sans: ["www.example.com", { type: "uri", value }] });
    expect(
      await first(uri("https://www.example.com/x"), nc({ permitted: { uri: [".example.com"] } })),
    ).toBeUndefined();
    expect(await first(uri("urn:isbn:1"), nc({ excluded: { uri: ["x.test"] } }))).toBeDefined();
    // iPAddress: a SAN of neither 4 nor 16 octets violates every iPAddress constraint.
    const badIp = { sans: ["www.example.com", { type: "ip", value: "#0A0000" }] };
    expect(await first(badIp, nc({ excluded: { ip: ["192.0.2.0/24"] } }))).toBeDefined();
    // directoryName: the subject must lie under a permitted name.
    expect(
      await first(
        { subject: "CN=www.example.com,O=Example" },
        nc({ permitted: { directoryName: ["O=Example"] } }),
      ),
    ).toBeUndefined();
    const dn = await first(
      { subject: "CN=www.example.com,O=Other" },
      nc({ permitted: { directoryName: ["O=Example"] } }),
    );
    expect(dn?.observed).toContain("the subject CN=www.example.com,O=Other");
    // A form that cannot be evaluated violates when the CA constrains it.
    const other = { sans: ["www.example.com", { type: "otherName", value: "#A0" }] };
    expect(await first(other, nc({ permitted: { unsupported: ["otherName"] } }))).toBeDefined();
    expect(await first(other, nc({ permitted: { dns: ["example.com"] } }))).toBeUndefined();
  });

  test("a self-issued intermediate's own names are exempt (RFC 5280 §6.1.3); the leaf's are not", async () => {
    const root = makeCertificate({
      ...rootSpec,
      nameConstraints: { permitted: { directoryName: ["O=Example"] } },
    });
    // A key rollover: named like the root, a new key, signed by the root's key.
    const rollover = makeCertificate({
      ...rootSpec,
      key: "rollover",
      signedBy: "key:CN=Root",
      variant: "rollover",
    });
    const leafOf = (subject: string) =>
      makeCertificate({
        ...leafSpec,
        subject,
        issuer: "CN=Root",
        authorityKeyIdentifier: null,
        signedBy: "rollover",
      });
    const inside = await judge([leafOf("CN=www.example.com,O=Example"), rollover], { root });
    expect([inside.path, codesOf(inside)]).toEqual([[0, 1], []]);
    const outside = await judge([leafOf("CN=www.example.com,O=Other"), rollover], { root });
    expect(codesOf(outside)).toEqual(["NAME_CONSTRAINTS_VIOLATED[0]"]);
  });

  test("emailWithin and uriHost by their RFC forms", () => {
    expect(emailWithin("a@Example.com", "example.com")).toBe(true);
    expect(emailWithin("a@mail.example.com", ".example.com")).toBe(true);
    expect(emailWithin("a@example.com", ".example.com")).toBe(false);
    expect(emailWithin("a@example.com", "a@EXAMPLE.com")).toBe(true);
    expect(emailWithin("b@example.com", "a@example.com")).toBe(false);
    expect(uriHost("https://user@Host.Example:8443/path")).toBe("host.example");
    expect(uriHost("https://[2001:db8::1]/")).toBeNull();
    expect(uriHost("https://192.0.2.1/")).toBeNull();
    expect(uriHost("mailto:a@example.com")).toBeNull();
  });
});

describe("the rules as of late 2026 (CONTRACT §9.5)", () => {
  test("TOO_FEW_EMBEDDED_SCTS: 2 needed up to 180 days, 3 beyond; webpki only; none is NO_EMBEDDED_SCTS", async () => {
    const leaf = (days: number, sctCount: number) => ({
      sctCount,
      notBefore: "2026-05-01T00:00:00Z",
      notAfter: new Date(Date.parse("2026-05-01T00:00:00Z") + days * 86_400_000 - 1000)
        .toISOString()
        .replace(".000", ""),
    });
    const at = async (days: number, scts: number, anchor: Anchor = "reference") =>
      codesOf(await chainOf(leaf(days, scts), {}, { anchor }));
    expect(await at(180, 1)).toEqual(["TOO_FEW_EMBEDDED_SCTS[0]"]);
    expect(await at(180, 2)).toEqual([]);
    expect(await at(181, 2)).toEqual(["TOO_FEW_EMBEDDED_SCTS[0]"]);
    expect(await at(181, 3)).toEqual([]);
    expect(await at(90, 0)).toEqual(["NO_EMBEDDED_SCTS[0]"]);
    expect(await at(181, 1, "supplied")).toEqual([]);
    const problem = (await chainOf(leaf(181, 2), {}, { anchor: "reference" })).problems[0]!;
    expect([problem.severity, problem.clients, problem.observed]).toEqual([
      "warning",
      ["chrome", "firefox", "apple"],
      "Certificate 0 (CN=www.example.com) carries 2 SCTs for 181 days, 3 needed.",
    ]);
    const none = (await chainOf({ sctCount: 0 }, {}, { anchor: "reference" })).problems[0]!;
    expect(none.clients).toEqual(["chrome", "firefox", "apple"]);
    expect(`${none.observed} ${none.nextAction}`).not.toContain("OCSP");
  });

  test("EKU_NOT_SERVER_AUTH_ONLY from notBefore 2027-03-15 inclusive, webpki only, no client", async () => {
    const leaf = (notBefore: string) => ({
      notBefore,
      notAfter: new Date(Date.parse(notBefore) + 40 * 86_400_000).toISOString().replace(".000", ""),
      extendedKeyUsage: ["serverAuth", "clientAuth"],
    });
    const at = async (notBefore: string, anchor: Anchor = "reference") =>
      (await chainOf(leaf(notBefore), {}, { anchor, now: notBefore })).problems;
    const raised = (await at("2027-03-15T00:00:00Z"))[0]!;
    expect([raised.code, raised.severity, raised.clients]).toEqual([
      "EKU_NOT_SERVER_AUTH_ONLY",
      "warning",
      [],
    ]);
    expect(raised.observed).toContain("clientAuth");
    expect(raised.observed).toContain("may be distrusted");
    expect(await at("2027-03-14T23:59:59Z")).toEqual([]);
    expect(await at("2027-03-15T00:00:00Z", "supplied")).toEqual([]);
  });

  test("ROOT_DISTRUSTED_FOR_NEW_CERTS: Firefox by notBefore, Chrome by the earliest SCT (notBefore without one)", async () => {
    const after = Date.parse("2026-04-30T00:00:00Z");
    const at = async (distrust: RootDistrust, leaf: Partial<CertSpec> = {}, anchor: Anchor = "reference") =>
      (await chainOf(leaf, {}, { anchor, distrust })).problems.find(
        (p) => p.code === "ROOT_DISTRUSTED_FOR_NEW_CERTS",
      );
    const both = await at({ serverDistrustAfter: after, sctNotAfter: after });
    expect([both?.certificateIndexes, both?.severity, both?.clients]).toEqual([
      [0],
      "error",
      ["chrome", "firefox"],
    ]);
    expect(both?.observed).toContain("CN=Root");
    expect(both?.observed).toContain("2026-04-30T00:00:00Z");
    // Logged before Chrome's date, issued after Firefox's.
    const early = await at(
      { serverDistrustAfter: after, sctNotAfter: after },
      { earliestSctAt: "2026-04-29T00:00:00Z" },
    );
    expect(early?.clients).toEqual(["firefox"]);
    expect(
      await at({ serverDistrustAfter: Date.parse("2026-05-01T00:00:00Z"), sctNotAfter: null }),
    ).toBeUndefined();
    expect(await at({ serverDistrustAfter: null, sctNotAfter: null })).toBeUndefined();
    // Under a supplied root the reference store's dates never apply.
    expect(await at({ serverDistrustAfter: after, sctNotAfter: after }, {}, "supplied")).toBeUndefined();
  });

  test("EXPIRING without expiryWarningDays: a third of the lifetime, at most 30 days, half under 10 days", async () => {
    const sixDay = { notBefore: "2026-05-28T00:00:00Z", notAfter: "2026-06-03T23:59:59Z" };
    // 7 days of validity (inclusive count): ⌈7/2⌉ = 4 days; 2 days left → EXPIRING.
    const short = (await chainOf(sixDay)).problems.find((p) => p.code === "EXPIRING")!;
    expect(short.observed).toContain("within the last half of its 7-day lifetime (4 days)");
    // An explicit expiryWarningDays works as before.
    expect(codesOf(await chainOf(sixDay, {}, { expiryWarningDays: 1 }))).toEqual([]);
    // 90 days: 30; the intermediate's 30 years: 30.
    expect(expiryThreshold({ expiryWarningDays: null }, 90).days).toBe(30);
    expect(expiryThreshold({ expiryWarningDays: null }, 45).days).toBe(15);
    expect(expiryThreshold({ expiryWarningDays: 7 }, 90).days).toBe(7);
    expect(expiryThreshold({ expiryWarningDays: null, expiryWarningPercent: 50 }, 90).days).toBe(45);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), (lifetime) => {
        const { days } = expiryThreshold({ expiryWarningDays: null }, lifetime);
        const model = lifetime < 10 ? Math.ceil(lifetime / 2) : Math.min(30, Math.ceil(lifetime / 3));
        return days === model && days <= Math.max(30, lifetime);
      }),
    );
  });

  test("VALIDITY_OVER_BR_LIMIT is Chrome's error; RSA_KEY_UNDER_2048 names OpenSSL; SHA-1 names Chrome under any profile", async () => {
    const long = { notBefore: "2026-03-15T00:00:00Z", notAfter: "2026-10-01T00:00:01Z", sctCount: 3 };
    const br = (await chainOf(long, {}, { anchor: "reference" })).problems[0]!;
    expect([br.code, br.severity, br.clients]).toEqual(["VALIDITY_OVER_BR_LIMIT", "error", ["chrome"]]);
    expect(br.observed).toContain("ERR_CERT_VALIDITY_TOO_LONG");
    const rsa = (await chainOf({}, { keyType: "RSA", keyBits: 1536 })).problems[0]!;
    expect([rsa.code, rsa.clients]).toEqual(["RSA_KEY_UNDER_2048", ["apple", "openssl"]]);
    const sha1 = (await chainOf({ signatureDigest: "SHA-1" })).problems[0]!;
    expect([sha1.code, sha1.clients]).toEqual(["SHA1_SIGNATURE", ["chrome", "apple", "go", "openssl"]]);
  });
});

describe("name constraints against malformed and wildcard names (x509-limbo)", () => {
  test("a DNS SAN with an empty label lies within no subtree; a wildcard meets an excluded name one label under it", async () => {
    const { dnsWithin, wildcardMayMatch } = await import("../../src/domain/certificates/name-constraints.ts");
    expect(dnsWithin(".example.com", "example.com")).toBe(false);
    expect(dnsWithin("a..example.com", "example.com")).toBe(false);
    expect(dnsWithin("a.example.com", "example.com")).toBe(true);
    expect(wildcardMayMatch("*.example.com", "bar.example.com")).toBe(true);
    expect(wildcardMayMatch("*.example.com", ".bar.example.com")).toBe(true);
    expect(wildcardMayMatch("*.example.com", "x.bar.example.com")).toBe(false);
    expect(wildcardMayMatch("*.example.com", "example.com")).toBe(false);
    expect(wildcardMayMatch("www.example.com", "bar.example.com")).toBe(false);
    const forbid = { nameConstraints: { excluded: { dns: ["bar.example.com"] } } };
    expect(codesOf(await chainOf({ sans: ["*.example.com"] }, forbid))).toEqual([
      "NAME_CONSTRAINTS_VIOLATED[0,1]",
    ]);
    const permit = { nameConstraints: { permitted: { dns: ["example.com"] } } };
    expect(codesOf(await chainOf({ sans: [".example.com"] }, permit))).toEqual([
      "NAME_CONSTRAINTS_VIOLATED[0,1]",
    ]);
  });
});

describe("RSA_KEY_UNDER_2048 names OpenSSL where its level 2 refuses (measured: under 1963 bits)", () => {
  test("1962 bits names openssl, 1963 does not; apple always", async () => {
    const clientsAt = async (keyBits: number) =>
      (await chainOf({ keyType: "RSA", keyBits })).problems.find((p) => p.code === "RSA_KEY_UNDER_2048")
        ?.clients;
    expect(await clientsAt(1024)).toEqual(["apple", "openssl"]);
    expect(await clientsAt(1962)).toEqual(["apple", "openssl"]);
    expect(await clientsAt(1963)).toEqual(["apple"]);
    expect(await clientsAt(2047)).toEqual(["apple"]);
    expect(await clientsAt(2048)).toBeUndefined();
  });
});

describe("an iPAddress constraint that is not a CIDR block (x509-limbo nc::invalid-ipv4-address)", () => {
  test("malformedIpSubtree, and the CA refuses everything below it, naming Go", async () => {
    const { malformedIpSubtree } = await import("../../src/domain/certificates/name-constraints.ts");
    const subtree = (address: number[], mask: number[]) => ({
      address: new Uint8Array(address),
      mask: new Uint8Array(mask),
    });
    expect(malformedIpSubtree(subtree([10, 0, 0, 0], [255, 0, 0, 0]))).toBe(false);
    expect(malformedIpSubtree(subtree([10, 0, 0, 0], [255, 255, 255, 255]))).toBe(false);
    expect(malformedIpSubtree(subtree([10, 0, 0, 0], [0, 0, 0, 0]))).toBe(false);
    expect(malformedIpSubtree(subtree([10, 0, 0, 0], [255, 0, 255, 0]))).toBe(true);
    expect(malformedIpSubtree(subtree([10, 0, 0, 0, 1], []))).toBe(true);
    // The fake builder turns CIDR text into masks; a hand-made non-CIDR mask goes through the model.
    const int = makeCertificate({ ...intSpec, nameConstraints: { permitted: { ip: ["10.0.0.0/8"] } } });
    const broken: CertificateData = {
      ...int,
      nameConstraints: {
        ...int.nameConstraints!,
        permitted: { ...int.nameConstraints!.permitted, ip: [subtree([10, 0, 0, 0], [255, 0, 255, 0])] },
      },
    };
    const leaf = makeCertificate(leafSpec);
    const root = makeCertificate(rootSpec);
    const result = await buildCertificateChain(
      { pem: bundleOf([leaf, broken]), roots: bundleOf([root]) },
      {
        clock: fixedClock(NOW),
        decoder: fakeDecoder([leaf, broken, root]),
        verifier: scriptedVerifier(),
        roots: fakeRootStore(),
      },
    );
    const problem = result.problems.find((p) => p.code === "NAME_CONSTRAINTS_VIOLATED");
    expect([problem?.certificateIndexes, problem?.clients]).toEqual([[0, 1], ["go"]]);
    expect(problem?.observed).toContain("#0a000000ff00ff00");
  });
});
