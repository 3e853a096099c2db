/**
 * CONTRACT §8.1 on real certificates (tests/fixtures/client-rules, committed; made by its
 * generate.sh): each code raised exactly where its table says, under the `private` profile (the
 * fixture root supplied, or a self-signed root in the bundle) and under `webpki` (the same root as a
 * reference root), with the real decoder and verifier; `openssl verify` refuses exactly where a
 * problem names openssl; a private chain raises no webpki-only code. Clocks and `-attime` are
 * pinned to the day after each leaf's notBefore.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { ReferenceRootStore } from "../../src/adapters/crypto/root-store.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import {
  buildCertificateChain,
  type CertificateChainResult,
  type ChainProblem,
} from "../../src/domain/certificates/chain.ts";
import { PROBLEM_RULES } from "../../src/domain/certificates/chain-problems.ts";
import { fixedClock } from "../fakes/clock.ts";
import { pemToDers } from "../fixtures/fixtures.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "client-rules");
const read = (folder: string, name: string) => readFileSync(join(FIXTURES, folder, `${name}.pem`), "utf8");

interface Row {
  /** chains/NAME.pem */
  name: string;
  /** The anchor: certs/ROOT.pem; supplied as `roots` unless `inBundle`. */
  root: string;
  inBundle: boolean;
  /** The evaluation day (the day after the leaf's notBefore). */
  day: string;
  /** `CODE[indexes]` under `private`, in the contract's order. */
  private: string[];
  /** The same under `webpki`. */
  webpki: string[];
}

const SCT = "NO_EMBEDDED_SCTS[0]";
const row = (
  name: string,
  privateCodes: string[],
  webpki: string[],
  options: { root?: string; inBundle?: boolean; day?: string } = {},
): Row => ({
  name,
  root: options.root ?? "root",
  inBundle: options.inBundle ?? false,
  day: options.day ?? "2025-06-02",
  private: privateCodes,
  webpki,
});

const ROWS: Row[] = [
  row("good", [], []),
  row("no-sct", [], [SCT]),
  row("no-san", ["NO_SUBJECT_ALT_NAME[0]"], ["NO_SUBJECT_ALT_NAME[0]", SCT]),
  row("eku-client", ["EKU_LACKS_SERVER_AUTH[0]"], ["EKU_LACKS_SERVER_AUTH[0]", SCT]),
  row("eku-any", ["EKU_LACKS_SERVER_AUTH[0]"], ["EKU_LACKS_SERVER_AUTH[0]", SCT]),
  row("no-eku-2019", ["EKU_ABSENT[0]"], ["EKU_ABSENT[0]", SCT], { day: "2019-07-02" }),
  row("no-eku-2018", [], [SCT], { day: "2019-07-02" }),
  row("rsa-512", ["RSA_KEY_UNDER_1024[0]"], ["RSA_KEY_UNDER_1024[0]", SCT]),
  row("rsa-1023", ["RSA_KEY_UNDER_1024[0]"], ["RSA_KEY_UNDER_1024[0]", SCT]),
  row("rsa-1024", ["RSA_KEY_UNDER_2048[0]"], ["RSA_KEY_UNDER_2048[0]", SCT]),
  row("rsa-2047", ["RSA_KEY_UNDER_2048[0]"], ["RSA_KEY_UNDER_2048[0]", SCT]),
  row("rsa-2048", [], [SCT]),
  row("days-826-2019", ["VALIDITY_OVER_825_DAYS[0]"], ["VALIDITY_OVER_825_DAYS[0]", SCT], {
    day: "2019-07-02",
  }),
  row("days-826-2019-before", [], [SCT], { day: "2019-07-02" }),
  row("days-825-2019", [], [SCT], { day: "2019-07-02" }),
  row("days-399-2020", [], ["VALIDITY_OVER_398_DAYS[0]", SCT], { day: "2020-09-02" }),
  row("days-399-2020-before", [], [SCT], { day: "2020-09-02" }),
  row("days-398-2020", [], [SCT], { day: "2020-09-02" }),
  row("days-201-2026", [], ["VALIDITY_OVER_BR_LIMIT[0]", "TOO_FEW_EMBEDDED_SCTS[0]"], { day: "2026-03-16" }),
  row("days-200-2026", [], ["TOO_FEW_EMBEDDED_SCTS[0]"], { day: "2026-03-16" }),
  row("days-101-2027", [], ["VALIDITY_OVER_BR_LIMIT[0]"], { day: "2027-03-16" }),
  row("days-48-2029", [], ["VALIDITY_OVER_BR_LIMIT[0]"], { day: "2029-03-16" }),
  row("under-sha1", ["SHA1_SIGNATURE[1]"], ["SHA1_SIGNATURE[1]", SCT], { root: "root" }),
  // The SHA-1 root is the in-bundle anchor: its own signature is never judged.
  row("under-sha1-root", ["ROOT_INCLUDED[2]"], [SCT, "ROOT_INCLUDED[2]"], {
    root: "root-sha1",
    inBundle: true,
  }),
  row("under-sub-ca", ["PATH_LENGTH_EXCEEDED[2]"], ["PATH_LENGTH_EXCEEDED[2]", SCT]),
  // A self-issued certificate between the pathLen 0 CA and the leaf does not count.
  row("under-rollover", [], [SCT]),
  // Under webpki the reference root ends the path at the intermediate: the root is no member.
  row("under-pathlen0-root", ["PATH_LENGTH_EXCEEDED[2]", "ROOT_INCLUDED[2]"], [SCT, "ROOT_INCLUDED[2]"], {
    root: "root-pathlen0",
    inBundle: true,
  }),
  row("nc-ok", [], [SCT]),
  row("nc-dns", ["NAME_CONSTRAINTS_VIOLATED[0,1]"], ["NAME_CONSTRAINTS_VIOLATED[0,1]", SCT]),
  row("nc-excluded", ["NAME_CONSTRAINTS_VIOLATED[0,1]"], ["NAME_CONSTRAINTS_VIOLATED[0,1]", SCT]),
  row("nc-ip", ["NAME_CONSTRAINTS_VIOLATED[0,1]"], ["NAME_CONSTRAINTS_VIOLATED[0,1]", SCT]),
  row("under-nc-root", ["NAME_CONSTRAINTS_VIOLATED[0,2]", "ROOT_INCLUDED[2]"], [SCT, "ROOT_INCLUDED[2]"], {
    root: "root-nc",
    inBundle: true,
  }),
];

const decoder = new DerCertificateDecoder();
const verifier = new NodeSignatureVerifier();

async function verdict(fixture: Row, profile: "private" | "webpki"): Promise<CertificateChainResult> {
  const rootPem = read("certs", fixture.root);
  const supply = profile === "private" && !fixture.inBundle;
  return buildCertificateChain(
    { pem: read("chains", fixture.name), ...(supply ? { roots: rootPem } : {}) },
    {
      clock: fixedClock(`${fixture.day}T00:00:00Z`),
      decoder,
      verifier,
      roots: new ReferenceRootStore(profile === "webpki" ? pemToDers(rootPem) : []),
    },
  );
}

const codesOf = (result: CertificateChainResult) =>
  result.problems.map((p) => `${p.code}[${p.certificateIndexes.join(",")}]`);
const problemOf = (result: CertificateChainResult, code: string): ChainProblem =>
  result.problems.find((p) => p.code === code)!;

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "client-rules-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `openssl verify` as an OpenSSL TLS client judges a server's chain: purpose sslserver and
 * security level 1 (libssl's default, which sets the verification's auth level), at the pinned
 * instant; the leaf is the first block of fullchainPem, the rest untrusted, the anchor trusted.
 */
function opensslAccepts(result: CertificateChainResult, fixture: Row, level = 2): boolean {
  const write = (file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    return join(dir, file);
  };
  const end = "-----END CERTIFICATE-----\n";
  const leaf = result.fullchainPem.slice(0, result.fullchainPem.indexOf(end) + end.length);
  const run = Bun.spawnSync(
    [
      "openssl",
      "verify",
      "-attime",
      String(Date.parse(`${fixture.day}T00:00:00Z`) / 1000),
      "-auth_level",
      // OpenSSL 3.2's default security level (CONTRACT §9.5); the machine's 3.0 defaults to 1.
      String(level),
      "-purpose",
      "sslserver",
      "-CAfile",
      write("anchor.pem", read("certs", fixture.root)),
      "-untrusted",
      write("served.pem", result.fullchainPem),
      write("leaf.pem", leaf),
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  return run.exitCode === 0;
}

describe("client rules on generated certificates (CONTRACT §8.1)", () => {
  test("each code exactly where its table says, under private and under webpki", async () => {
    for (const fixture of ROWS) {
      const mine = await verdict(fixture, "private");
      const theirs = await verdict(fixture, "webpki");
      expect({
        name: fixture.name,
        status: mine.status,
        profile: mine.profile,
        codes: codesOf(mine),
      }).toEqual({
        name: fixture.name,
        status: "complete",
        profile: "private",
        codes: fixture.private,
      });
      expect({ name: fixture.name, profile: theirs.profile, codes: codesOf(theirs) }).toEqual({
        name: fixture.name,
        profile: "webpki",
        codes: fixture.webpki,
      });
    }
  });

  test("a private chain raises no webpki-only code; every fixture judged", async () => {
    const webpkiOnly = Object.entries(PROBLEM_RULES)
      .filter(([, rule]) => rule.profile === "webpki")
      .map(([code]) => code);
    expect(webpkiOnly.sort()).toEqual([
      "EKU_NOT_SERVER_AUTH_ONLY",
      "NO_EMBEDDED_SCTS",
      "ROOT_DISTRUSTED_FOR_NEW_CERTS",
      "TOO_FEW_EMBEDDED_SCTS",
      "VALIDITY_OVER_398_DAYS",
      "VALIDITY_OVER_BR_LIMIT",
    ]);
    for (const fixture of ROWS) {
      const result = await verdict(fixture, "private");
      expect([fixture.name, result.problems.filter((p) => webpkiOnly.includes(p.code))]).toEqual([
        fixture.name,
        [],
      ]);
    }
    const names = readFileSync(join(FIXTURES, "generate.sh"), "utf8");
    for (const fixture of ROWS) expect(names).toContain(fixture.name);
  });

  test("openssl verify refuses exactly where a problem names openssl (but RSA 920–1023 bits: see below)", async () => {
    const refused: string[] = [];
    for (const fixture of ROWS) {
      if (fixture.name === "rsa-1023") continue;
      const result = await verdict(fixture, "private");
      const namesOpenssl = result.problems.some((p) => p.clients.includes("openssl"));
      const accepts = opensslAccepts(result, fixture);
      expect({ name: fixture.name, opensslRefuses: !accepts }).toEqual({
        name: fixture.name,
        opensslRefuses: namesOpenssl,
      });
      if (!accepts) refused.push(fixture.name);
    }
    expect(refused).toEqual([
      "eku-client",
      "eku-any",
      "rsa-512",
      "rsa-1024",
      "under-sha1",
      "under-sub-ca",
      "under-pathlen0-root",
      "nc-dns",
      "nc-excluded",
      "nc-ip",
      "under-nc-root",
    ]);
  });

  test("OpenSSL 3.0 accepts an RSA 1023-bit key at level 1 although the contract names it for RSA_KEY_UNDER_1024", async () => {
    // CONTRACT §8.1 names openssl for every RSA key under 1024 bits ("level 1: RSA keys shorter
    // than 1024 bits prohibited", as the OpenSSL manual says); OpenSSL 3.0's own estimate
    // (ossl_ifc_ffc_compute_security_bits) rounds RSA 920–1023 bits to 80 bits of security, so
    // `openssl verify -auth_level 1` refuses only below 920 bits. Pinned here so the gap stays seen.
    const fixture = ROWS.find((r) => r.name === "rsa-1023")!;
    const result = await verdict(fixture, "private");
    expect(problemOf(result, "RSA_KEY_UNDER_1024").clients).toContain("openssl");
    expect(opensslAccepts(result, fixture, 1)).toBe(true);
  });

  test("clients, measured numbers and advice as the table says", async () => {
    const at = async (name: string, profile: "private" | "webpki" = "private") =>
      verdict(ROWS.find((r) => r.name === name)!, profile);
    expect(problemOf(await at("eku-client"), "EKU_LACKS_SERVER_AUTH").clients).toEqual([
      "chrome",
      "firefox",
      "apple",
      "go",
      "openssl",
    ]);
    const any = problemOf(await at("eku-any"), "EKU_LACKS_SERVER_AUTH");
    expect(any.clients).toEqual(["apple", "openssl"]);
    expect(any.observed).toContain("clientAuth, anyExtendedKeyUsage");
    expect(problemOf(await at("under-sha1"), "SHA1_SIGNATURE").clients).toEqual([
      "chrome",
      "apple",
      "go",
      "openssl",
    ]);
    const sha1 = problemOf(await at("under-sha1", "webpki"), "SHA1_SIGNATURE");
    expect(sha1.clients).toEqual(["chrome", "firefox", "apple", "go", "openssl"]);
    expect(sha1.observed).toContain("ecdsa-with-SHA1");
    expect(sha1.nextAction).toStartWith("Replace certificate 1 (CN=Client Rules SHA-1 Intermediate)");
    expect(problemOf(await at("under-nc-root"), "NAME_CONSTRAINTS_VIOLATED").clients).toEqual([
      "chrome",
      "go",
      "openssl",
    ]);
    expect(problemOf(await at("nc-dns"), "NAME_CONSTRAINTS_VIOLATED").observed).toContain("www.other.test");
    expect(problemOf(await at("nc-ip"), "NAME_CONSTRAINTS_VIOLATED").observed).toContain("192.0.2.1");
    expect(problemOf(await at("nc-excluded"), "NAME_CONSTRAINTS_VIOLATED").observed).toContain(
      "x.blocked.allowed.test",
    );
    const rsa = problemOf(await at("rsa-1023"), "RSA_KEY_UNDER_1024");
    expect(rsa.observed).toContain("RSA 1023 bits");
    expect(rsa.nextAction).toContain("Reissue");
    expect(problemOf(await at("rsa-2047"), "RSA_KEY_UNDER_2048").observed).toContain("RSA 2047 bits");
    const apple = problemOf(await at("days-826-2019"), "VALIDITY_OVER_825_DAYS");
    expect(apple.observed).toContain("validity 826 days");
    expect(apple.observed).toContain("825 days");
    expect(apple.nextAction).toContain("825 days");
    const publicLimit = problemOf(await at("days-399-2020", "webpki"), "VALIDITY_OVER_398_DAYS");
    expect(publicLimit.observed).toContain("validity 399 days");
    expect(publicLimit.observed).toContain("398 days");
    const br = problemOf(await at("days-201-2026", "webpki"), "VALIDITY_OVER_BR_LIMIT");
    expect([
      br.severity,
      br.clients,
      br.observed.includes("validity 201 days"),
      br.observed.includes("200 days"),
    ]).toEqual(["error", ["chrome"], true, true]);
    expect(problemOf(await at("days-48-2029", "webpki"), "VALIDITY_OVER_BR_LIMIT").observed).toContain(
      "47 days",
    );
    const path = problemOf(await at("under-sub-ca"), "PATH_LENGTH_EXCEEDED");
    expect(path.observed).toContain("pathLenConstraint 0");
    expect(path.nextAction).toStartWith("Replace");
    expect(problemOf(await at("no-san"), "NO_SUBJECT_ALT_NAME").observed).toContain("subjectAltName");
    expect(problemOf(await at("no-eku-2019"), "EKU_ABSENT").observed).toContain("extendedKeyUsage");
    expect(problemOf(await at("no-sct", "webpki"), "NO_EMBEDDED_SCTS").observed).toContain("SCT");
  });

  test("the members carry the §8.1 fields: validity days, key, EKU, pathLen, SCTs, CRL URLs", async () => {
    const [leaf, int] = (await verdict(ROWS.find((r) => r.name === "good")!, "private")).certificates;
    expect(leaf).toMatchObject({
      notBefore: "2025-06-01T00:00:00Z",
      validityDays: 90,
      keyType: "EC",
      keyBits: 256,
      keyCurve: "P-256",
      signatureAlgorithm: "ecdsa-with-SHA256",
      extendedKeyUsage: ["serverAuth"],
      pathLenConstraint: null,
      sctCount: 2,
      crlUrls: [],
    });
    expect(leaf!.publicKeySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(int).toMatchObject({ extendedKeyUsage: null, pathLenConstraint: null, sctCount: 0 });
    const days = async (name: string) =>
      (await verdict(ROWS.find((r) => r.name === name)!, "private")).certificates[0]!.validityDays;
    expect([await days("days-399-2020"), await days("days-398-2020"), await days("days-826-2019")]).toEqual([
      399, 398, 826,
    ]);
    const noSct = (await verdict(ROWS.find((r) => r.name === "no-sct")!, "private")).certificates[0]!;
    expect(noSct.crlUrls).toEqual(["http://crl.client-rules.test/int.crl"]);
  });
});
