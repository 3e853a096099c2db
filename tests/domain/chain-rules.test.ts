/**
 * CONTRACT §7.1 and §7.2, rule by rule, over fake certificates (tests/fakes): the path rule and its
 * ranking, status and anchor, supplied roots, the hostname or address, expiry arithmetic, every
 * problem code with its severity and indexes, ordering, and fullchainPem.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildCertificateChain, type CertificateChainRequest } from "../../src/domain/certificates/chain.ts";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { DomainError, WorkAbandoned } from "../../src/domain/errors.ts";
import { bundleOf, fakeDecoder, makeCertificate, toPem } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier, type VerifierScript } from "../fakes/verifier.ts";

const NOW = "2026-01-01T00:00:00Z";

interface Options extends Omit<CertificateChainRequest, "pem"> {
  now?: string;
  knownRoots?: CertificateData[];
  supplied?: CertificateData[];
  script?: VerifierScript;
}

async function run(certificates: CertificateData[], options: Options = {}) {
  const { now, knownRoots, supplied, script, ...request } = options;
  const verifier = scriptedVerifier(script);
  const result = await buildCertificateChain(
    {
      pem: bundleOf(certificates),
      ...(supplied ? { roots: bundleOf(supplied) } : {}),
      ...request,
    },
    {
      clock: fixedClock(now ?? NOW),
      // The known roots decode too, as the reference store's do with the real decoder.
      decoder: fakeDecoder([...certificates, ...(supplied ?? []), ...(knownRoots ?? [])]),
      verifier,
      roots: fakeRootStore(knownRoots),
    },
  );
  return { result, verifier };
}

async function rejection(certificates: CertificateData[], options: Options & { pem?: string } = {}) {
  try {
    const { pem, ...rest } = options;
    if (pem !== undefined) {
      await buildCertificateChain(
        { pem, ...rest },
        {
          clock: fixedClock(NOW),
          decoder: fakeDecoder(certificates),
          verifier: scriptedVerifier(),
          roots: fakeRootStore(),
        },
      );
    } else await run(certificates, options);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected INVALID_INPUT");
}

const codes = (r: { problems: { code: string }[] }) => r.problems.map((p) => p.code);

/** root ← int ← leaf, key ids matching, AIA on the children. */
function hierarchy() {
  const root = makeCertificate({ subject: "CN=Root,O=Example", ca: true, subjectKeyIdentifier: "AA" });
  const int = makeCertificate({
    subject: "CN=Int,O=Example",
    issuer: "CN=Root,O=Example",
    ca: true,
    subjectKeyIdentifier: "BB",
    authorityKeyIdentifier: "AA",
    caIssuersUrls: ["http://pki.example/root.cer"],
  });
  const leaf = makeCertificate({
    subject: "CN=www.example.com",
    issuer: "CN=Int,O=Example",
    authorityKeyIdentifier: "BB",
    sans: [
      "www.example.com",
      { type: "ip", value: "192.0.2.10" },
      { type: "ip", value: "::ffff:192.0.2.20" },
    ],
    caIssuersUrls: ["http://pki.example/int.cer", "http://mirror.example/int.cer"],
    ocspUrls: ["http://ocsp.example"],
  });
  return { root, int, leaf };
}

describe("the path and its anchor", () => {
  test("a self-signed member ends the path: in-bundle, complete, root left out of fullchainPem", async () => {
    const { root, int, leaf } = hierarchy();
    const { result } = await run([leaf, int, root]);
    expect(result.path).toEqual([0, 1, 2]);
    expect(result.status).toBe("complete");
    expect(result.anchor).toEqual({ kind: "in-bundle", subject: "CN=Root,O=Example", caIssuersUrls: [] });
    expect(result.fullchainPem).toBe(toPem(leaf) + toPem(int));
    expect(codes(result)).toEqual(["ROOT_INCLUDED"]);
    expect(result.problems[0]!.certificateIndexes).toEqual([2]);
  });

  test("no issuer anywhere: incomplete, anchor missing with the last member's caIssuers URLs", async () => {
    const { int, leaf } = hierarchy();
    const { result } = await run([leaf, int]);
    expect(result.status).toBe("incomplete");
    expect(result.anchor).toEqual({
      kind: "missing",
      subject: "CN=Root,O=Example",
      caIssuersUrls: ["http://pki.example/root.cer"],
    });
    const problem = result.problems.find((p) => p.code === "INCOMPLETE_CHAIN")!;
    expect(problem.severity).toBe("error");
    expect(problem.certificateIndexes).toEqual([1]);
    expect(problem.observed).toContain("certificate 1 (CN=Int)");
    expect(problem.nextAction).toContain("http://pki.example/root.cer");
  });

  test("a known root ends the path at the member it issued, before any in-bundle copy of it", async () => {
    const { root, int, leaf } = hierarchy();
    const { result } = await run([leaf, int, root], { knownRoots: [root] });
    expect(result.path).toEqual([0, 1]);
    expect(result.anchor!.kind).toBe("known-root");
    expect(result.anchor!.subject).toBe("CN=Root,O=Example");
    // The bundle's root is an included root (a verified candidate of the last member), not unneeded;
    // under a known root the profile is webpki, where the fake leaf's 731 days are too long (and its
    // two SCTs too few for them).
    expect(codes(result)).toEqual(["VALIDITY_OVER_398_DAYS", "TOO_FEW_EMBEDDED_SCTS", "ROOT_INCLUDED"]);
    expect(result.profile).toBe("webpki");
    expect(result.fullchainPem).toBe(toPem(leaf) + toPem(int));
  });

  test("includeRoot appends the anchor: the store's root, the supplied one, or the bundle's", async () => {
    const { root, int, leaf } = hierarchy();
    const known = await run([leaf, int], { knownRoots: [root], includeRoot: true });
    expect(known.result.fullchainPem).toBe(toPem(leaf) + toPem(int) + toPem(root));
    const supplied = await run([leaf, int], { supplied: [root], includeRoot: true });
    expect(supplied.result.anchor!.kind).toBe("supplied-root");
    expect(supplied.result.fullchainPem).toBe(toPem(leaf) + toPem(int) + toPem(root));
    const inBundle = await run([leaf, int, root], { includeRoot: true });
    expect(inBundle.result.fullchainPem).toBe(toPem(leaf) + toPem(int) + toPem(root));
    const missing = await run([leaf, int], { includeRoot: true });
    expect(missing.result.fullchainPem).toBe(toPem(leaf) + toPem(int));
  });

  test("a self-signed leaf is its own anchor and stays in fullchainPem, appended once only", async () => {
    const leaf = makeCertificate({ subject: "CN=self.example", sans: ["self.example"] });
    const { result } = await run([leaf], { includeRoot: true });
    expect(result.path).toEqual([0]);
    expect(result.anchor!.kind).toBe("in-bundle");
    expect(result.fullchainPem).toBe(toPem(leaf));
    expect(codes(result)).toEqual([]);
  });

  test("only verified, issuerEligible candidates continue the path", async () => {
    const { root, int, leaf } = hierarchy();
    const notCa = makeCertificate({
      subject: "CN=Int,O=Example",
      issuer: "CN=Root,O=Example",
      ca: false,
      variant: "x",
    });
    const failing = await run([leaf, int, root], {
      script: (child, issuer) => (child === leaf && issuer === int ? { outcome: "unsupported" } : undefined),
    });
    expect(failing.result.path).toEqual([0]);
    expect(failing.result.status).toBe("incomplete");
    expect(codes(failing.result)).toContain("UNNEEDED_CERTIFICATE");
    const ineligible = await run([leaf, notCa], { leafIndex: 0 });
    expect(ineligible.result.path).toEqual([0]);
  });

  test("each link's signature is checked once: the same verifier calls as the bundle inspection", async () => {
    const { root, int, leaf } = hierarchy();
    const bundle = [int, leaf, root, int, root];
    const chain = await run(bundle);
    const verifier = scriptedVerifier();
    await inspectCertificateBundle(
      { pem: bundleOf(bundle) },
      { clock: fixedClock(NOW), decoder: fakeDecoder(bundle), verifier, roots: fakeRootStore() },
    );
    expect(chain.verifier.calls).toEqual(verifier.calls);
    const keys = chain.verifier.calls.map((call) => `${call.child}|${call.issuerKey}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("ranking (CONTRACT §7.1)", () => {
  const root = makeCertificate({ subject: "CN=Root", ca: true, subjectKeyIdentifier: "AA" });
  const other = makeCertificate({ subject: "CN=Other Root", ca: true, subjectKeyIdentifier: "CC" });

  test("complete before incomplete, even when longer", async () => {
    // Two intermediates with the same name and key: one issued by the bundle's root, one by a root not given.
    const viaRoot = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      subjectKeyIdentifier: "BB",
    });
    const viaMissing = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Gone",
      ca: true,
      key: "k-int",
      subjectKeyIdentifier: "BB",
    });
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=Int", signedBy: "k-int" });
    const { result } = await run([leaf, viaMissing, viaRoot, root]);
    expect(result.path).toEqual([0, 2, 3]);
    expect(result.status).toBe("complete");
  });

  test("then fewer key-id mismatches, then fewer invalid members, then fewer members, then lowest positions", async () => {
    const leaf = makeCertificate({
      subject: "CN=leaf",
      issuer: "CN=Int",
      signedBy: "k-int",
      authorityKeyIdentifier: "BB",
    });
    const mismatch = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      subjectKeyIdentifier: "99",
    });
    const matching = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      subjectKeyIdentifier: "BB",
    });
    expect((await run([leaf, mismatch, matching, root])).result.path).toEqual([0, 2, 3]);

    const expired = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      notAfter: "2025-06-01T00:00:00Z",
    });
    const valid = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      variant: "valid",
    });
    const plainLeaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=Int", signedBy: "k-int" });
    expect((await run([plainLeaf, expired, valid, root])).result.path).toEqual([0, 2, 3]);

    // Shorter: the intermediate issued directly by the root beats one reached through a bridge CA.
    const viaBridge = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Bridge",
      ca: true,
      key: "k-int",
      variant: "b",
    });
    const bridge = makeCertificate({ subject: "CN=Bridge", issuer: "CN=Root", ca: true });
    expect((await run([plainLeaf, viaBridge, bridge, valid, root])).result.path).toEqual([0, 3, 4]);

    // Equal in everything else: the lowest positions.
    const twin = makeCertificate({
      subject: "CN=Int",
      issuer: "CN=Root",
      ca: true,
      key: "k-int",
      variant: "twin",
    });
    expect((await run([plainLeaf, root, twin, valid])).result.path).toEqual([0, 2, 1]);
    expect(other.ca).toBe(true);
  });

  test("sixteen same-name CAs signing each other are searched in bounded time, path by fingerprint", async () => {
    const ring = Array.from({ length: 15 }, (_, k) =>
      makeCertificate({
        subject: k % 2 === 0 ? "CN=X" : "CN=Y",
        issuer: k % 2 === 0 ? "CN=Y" : "CN=X",
        ca: true,
        key: k % 2 === 0 ? "kx" : "ky",
        signedBy: k % 2 === 0 ? "ky" : "kx",
        variant: String(k),
      }),
    );
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=X", signedBy: "kx" });
    const { result } = await run([leaf, ...ring]);
    expect(result.status).toBe("incomplete");
    expect(new Set(result.path).size).toBe(result.path.length);
    expect(result.path.length).toBe(16);
    // Lowest positions member by member: X at 1, Y at 2, X at 3, …
    expect(result.path).toEqual(Array.from({ length: 16 }, (_, k) => k));
  });
});

/**
 * A leaf and a ring of 15 CAs, X and Y issuing each other, whose key ids make every certificate
 * distinct: the bundle that defeats the search's grouping (ADR 0022).
 */
function adversarialRing() {
  const ring = Array.from({ length: 15 }, (_, k) => {
    const x = k % 2 === 0;
    const i = Math.floor(k / 2);
    return makeCertificate({
      subject: x ? "CN=X" : "CN=Y",
      issuer: x ? "CN=Y" : "CN=X",
      ca: true,
      key: x ? "kx" : "ky",
      signedBy: x ? "ky" : "kx",
      variant: String(k),
      subjectKeyIdentifier: x ? `A${i}` : `B${i}`,
      authorityKeyIdentifier: x ? `B${i}` : `A${i + 1}`,
    });
  });
  const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=X", signedBy: "kx" });
  return { ring, leaf };
}

describe("the path search on adversarial bundles (ADR 0022)", () => {
  test("a ring whose key ids make every certificate distinct: exact, finishes, other work runs meanwhile", async () => {
    const { ring, leaf } = adversarialRing();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const { result } = await run([leaf, ...ring]);
    clearInterval(ticker);
    expect(result.status).toBe("incomplete");
    expect(new Set(result.path).size).toBe(16);
    // X_i names Y_i and Y_i names X_{i+1} by key id: leaf, X0, Y0, X1, … X7 has no mismatch at all.
    const mismatches = result.path.slice(1).filter((position, k) => {
      const child = [leaf, ...ring][result.path[k]!]!;
      const issuer = [leaf, ...ring][position]!;
      return (
        child.authorityKeyIdentifier !== null && child.authorityKeyIdentifier !== issuer.subjectKeyIdentifier
      );
    }).length;
    expect(mismatches).toBe(0);
    expect(ticks).toBeGreaterThan(0);
  }, 60_000);

  test("the same ring stops at its first pause once the request's budget is exhausted", async () => {
    const { ring, leaf } = adversarialRing();
    const certificates = [leaf, ...ring];
    let asked = 0;
    const budget = {
      exhausted: () => {
        asked++;
        return true;
      },
    };
    const stopped = buildCertificateChain(
      { pem: bundleOf(certificates) },
      {
        clock: fixedClock(NOW),
        decoder: fakeDecoder(certificates),
        verifier: scriptedVerifier(),
        roots: fakeRootStore(),
        budget,
      },
    );
    await expect(stopped).rejects.toBeInstanceOf(WorkAbandoned);
    expect(asked).toBe(1); // asked at the first pause, and it stopped there
    // A budget that never runs out lets the search finish with the exact answer.
    const finished = await buildCertificateChain(
      { pem: bundleOf(certificates) },
      {
        clock: fixedClock(NOW),
        decoder: fakeDecoder(certificates),
        verifier: scriptedVerifier(),
        roots: fakeRootStore(),
        budget: { exhausted: () => false },
      },
    );
    expect(finished.path).toHaveLength(16);
  }, 60_000);
});

describe("supplied roots (CONTRACT §7.2)", () => {
  test("match by name and key id; a same-name root with another key id does not match", async () => {
    const { root, int, leaf } = hierarchy();
    const sameNameOtherKey = makeCertificate({
      subject: "CN=Root,O=Example",
      ca: true,
      subjectKeyIdentifier: "FF",
      key: "other",
    });
    const good = await run([leaf, int], { supplied: [root] });
    expect(good.result.status).toBe("complete");
    expect(good.result.anchor).toMatchObject({ kind: "supplied-root", subject: "CN=Root,O=Example" });
    expect(good.result.problems).toEqual([]);
    const wrong = await run([leaf, int], { supplied: [sameNameOtherKey] });
    expect(wrong.result.status).toBe("incomplete");
  });

  test("any CA may be supplied, self-signed or not (partial chain); supplied roots before known ones", async () => {
    const { root, int, leaf } = hierarchy();
    const partial = await run([leaf], { supplied: [int] });
    expect(partial.result).toMatchObject({ path: [0], status: "complete" });
    expect(partial.result.anchor!.kind).toBe("supplied-root");
    const both = await run([leaf, int], { supplied: [root], knownRoots: [root] });
    expect(both.result.anchor!.kind).toBe("supplied-root");
    // Never listed in certificates.
    expect(both.result.certificates.map((c) => c.index)).toEqual([0, 1]);
  });

  test("supplied roots also answer issuerIsKnownRoot in the bundle inspection (the CLI's cert --roots), called the user's own", async () => {
    const { RequestRootStore } = await import("../../src/domain/certificates/trust-anchors.ts");
    const { root, int, leaf } = hierarchy();
    const result = await inspectCertificateBundle(
      { pem: bundleOf([leaf, int]) },
      {
        clock: fixedClock(NOW),
        decoder: fakeDecoder([leaf, int]),
        verifier: scriptedVerifier(),
        roots: new RequestRootStore(fakeRootStore(), [root]),
      },
    );
    const finding = result.findings.find((f) => f.code === "ISSUER_NOT_IN_BUNDLE")!;
    expect(finding.evidence).toEqual({
      issuer: "CN=Root,O=Example",
      issuerIsKnownRoot: true,
      caIssuersUrl: "http://pki.example/root.cer",
    });
    // CONTRACT §7.6: the user's own root, never the reference store's or Mozilla's.
    expect(finding.observed).toBe(
      "Certificate 1 (CN=Int) was issued by CN=Root and no certificate in the bundle carries that name; CN=Root is one of your own roots (the ones you supplied), so leaving it out is normal.",
    );
    expect(finding.nextAction).toBe(
      "Nothing needs adding if your clients trust your own root CN=Root: a served bundle usually leaves the root out.",
    );
    expect(JSON.stringify(result.findings)).not.toMatch(/Mozilla|reference root store/);
  });

  test("roots problems carry path [roots] and a location; a non-CA is refused; blank means none", async () => {
    const { int, leaf } = hierarchy();
    const error = await rejection([leaf, int], {
      pem: bundleOf([leaf, int]),
      roots: `${toPem(leaf)}-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----\n`,
    });
    expect(error.issues.map((i) => i.path)).toEqual([["roots"], ["roots"]]);
    expect(error.issues.every((i) => i.location !== undefined)).toBe(true);
    expect(error.issues.map((i) => i.message).join(" ")).not.toContain("MHcCAQEEIB");
    const blank = await run([leaf, int], { roots: "  \n " });
    expect(blank.result.status).toBe("incomplete");
  });
});

describe("a root ends the path only when its key verifies the member (CONTRACT §7.2)", () => {
  /** The root's name and key id on another key: it answers for Int's issuer but did not sign it. */
  const rekeyed = () =>
    makeCertificate({ subject: "CN=Root,O=Example", ca: true, subjectKeyIdentifier: "AA", key: "rekeyed" });

  test("a supplied root of the right name and key id whose key did not sign: incomplete, and said so", async () => {
    const { int, leaf } = hierarchy();
    const { result } = await run([leaf, int], { supplied: [rekeyed()] });
    expect(result).toMatchObject({ status: "incomplete", path: [0, 1], anchor: { kind: "missing" } });
    const problem = result.problems.find((p) => p.code === "INCOMPLETE_CHAIN")!;
    expect(problem.certificateIndexes).toEqual([1]);
    expect(problem.observed).toBe(
      "The chain stops at certificate 1 (CN=Int): a root named CN=Root was found among your own roots, but its key does not verify the certificate, and no certificate in the bundle issued it.",
    );
  });

  test("the same for a reference root; and the same root inside pem is not an issuer either", async () => {
    const { int, leaf } = hierarchy();
    const known = await run([leaf, int], { knownRoots: [rekeyed()] });
    expect(known.result.status).toBe("incomplete");
    expect(known.result.problems.find((p) => p.code === "INCOMPLETE_CHAIN")!.observed).toContain(
      "a root named CN=Root was found in the reference root store, but its key does not verify the certificate",
    );
    const inside = await run([leaf, int, rekeyed()]);
    expect(inside.result.status).toBe("incomplete");
  });

  test("of several roots that answer, the first whose key verifies ends it; one check per child and key", async () => {
    const { root, int, leaf } = hierarchy();
    const { result, verifier } = await run([leaf, int], { supplied: [rekeyed(), root] });
    expect(result).toMatchObject({ status: "complete", anchor: { kind: "supplied-root" } });
    expect(codes(result)).toEqual([]);
    const known = await run([leaf, int], { supplied: [rekeyed()], knownRoots: [root], includeRoot: true });
    expect(known.result.anchor!.kind).toBe("known-root");
    expect(known.result.fullchainPem).toBe(toPem(leaf) + toPem(int) + toPem(root));
    for (const calls of [verifier.calls, known.verifier.calls]) {
      const keys = calls.map((call) => `${call.child}|${call.issuerKey}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  test("an unverifiable root check (unsupported) does not end the path", async () => {
    const { root, int, leaf } = hierarchy();
    const { result } = await run([leaf, int], {
      supplied: [root],
      script: (child) => (child.subject === "CN=Int,O=Example" ? { outcome: "unsupported" } : undefined),
    });
    expect(result.status).toBe("incomplete");
  });

  test("a same-name root with another key id is not asked at all", async () => {
    const { int, leaf } = hierarchy();
    const otherId = makeCertificate({ subject: "CN=Root,O=Example", ca: true, subjectKeyIdentifier: "FF" });
    const { result, verifier } = await run([leaf, int], { supplied: [otherId] });
    expect(result.problems.find((p) => p.code === "INCOMPLETE_CHAIN")!.observed).toBe(
      "The chain stops at certificate 1 (CN=Int): its issuer, CN=Root, is neither in the bundle, nor one of your own roots, nor a known root.",
    );
    expect(verifier.calls.some((call) => call.issuerKey === otherId.publicKeyKey)).toBe(false);
  });
});

describe("true words (CONTRACT §7.6)", () => {
  const orderOf = (result: { problems: { code: string; nextAction: string }[] }) =>
    result.problems.find((p) => p.code === "WRONG_ORDER")!.nextAction;

  test("WRONG_ORDER's order lists exactly fullchainPem's certificates: no root that ROOT_INCLUDED leaves out", async () => {
    const { root, int, leaf } = hierarchy();
    const { result } = await run([int, root, leaf]);
    expect(codes(result)).toContain("ROOT_INCLUDED");
    expect(result.fullchainPem).toBe(toPem(leaf) + toPem(int));
    expect(orderOf(result)).toBe(
      "Serve the certificates in this order: certificate 2 (CN=www.example.com), then certificate 0 (CN=Int), as the corrected chain (fullchainPem) does.",
    );
    const withRoot = await run([int, root, leaf], { includeRoot: true });
    expect(withRoot.result.fullchainPem).toBe(toPem(leaf) + toPem(int) + toPem(root));
    expect(orderOf(withRoot.result)).toBe(
      "Serve the certificates in this order: certificate 2 (CN=www.example.com), then certificate 0 (CN=Int), then certificate 1 (CN=Root), as the corrected chain (fullchainPem) does.",
    );
  });

  test("a root appended from outside the bundle is named as the user's own, or the reference store's", async () => {
    const { root, int, leaf } = hierarchy();
    const own = await run([int, leaf], { supplied: [root], includeRoot: true });
    expect(orderOf(own.result)).toBe(
      "Serve the certificates in this order: certificate 1 (CN=www.example.com), then certificate 0 (CN=Int), then your own root CN=Root, as the corrected chain (fullchainPem) does.",
    );
    const known = await run([int, leaf], { knownRoots: [root], includeRoot: true });
    expect(orderOf(known.result)).toContain("then the root CN=Root of the reference store, as");
  });

  test("with roots supplied, a missing issuer is said to be none of the user's own roots; never Mozilla's", async () => {
    const { int, leaf } = hierarchy();
    const other = makeCertificate({ subject: "CN=Other Root", ca: true });
    const { result } = await run([leaf, int], { supplied: [other] });
    expect(result.problems.find((p) => p.code === "INCOMPLETE_CHAIN")!.observed).toBe(
      "The chain stops at certificate 1 (CN=Int): its issuer, CN=Root, is neither in the bundle, nor one of your own roots, nor a known root.",
    );
    expect(JSON.stringify(result)).not.toMatch(/Mozilla|reference root store/);
  });
});

describe("leaf, status and hostname", () => {
  test("several leaves: ambiguous, LEAF_SELECTION_REQUIRED naming each; a hostname that one covers picks it", async () => {
    const { root, int, leaf } = hierarchy();
    const other = makeCertificate({
      subject: "CN=api.example.com",
      issuer: "CN=Int,O=Example",
      sans: ["api.example.com"],
    });
    const ambiguous = await run([leaf, other, int, root]);
    expect(ambiguous.result).toMatchObject({
      leafIndex: null,
      path: [],
      status: "ambiguous",
      anchor: null,
      certificates: [],
      fullchainPem: "",
    });
    expect(ambiguous.result.problems.map((p) => [p.code, p.certificateIndexes])).toEqual([
      ["LEAF_SELECTION_REQUIRED", [0, 1]],
    ]);
    const chosen = await run([leaf, other, int, root], { hostname: "api.example.com" });
    expect(chosen.result).toMatchObject({ leafIndex: 1, path: [1, 2, 3], status: "complete" });
    // The other leaf is unneeded; position 0 is not the leaf.
    expect(codes(chosen.result)).toEqual(["WRONG_ORDER", "UNNEEDED_CERTIFICATE", "ROOT_INCLUDED"]);
  });

  test("no leaf: no-leaf, NO_LEAF_CERTIFICATE with no indexes, never UNNEEDED_CERTIFICATE", async () => {
    const { root, int } = hierarchy();
    const { result } = await run([int, root]);
    expect(result.status).toBe("no-leaf");
    expect(result.problems.map((p) => [p.code, p.certificateIndexes])).toEqual([["NO_LEAF_CERTIFICATE", []]]);
  });

  test("an address matches ip SANs only; an IPv4-mapped SAN never matches an IPv4 name", async () => {
    const { root, int, leaf } = hierarchy();
    expect(codes((await run([leaf, int, root], { hostname: "192.0.2.10" })).result)).not.toContain(
      "HOSTNAME_MISMATCH",
    );
    expect(codes((await run([leaf, int, root], { hostname: "::ffff:192.0.2.20" })).result)).not.toContain(
      "HOSTNAME_MISMATCH",
    );
    const mapped = (await run([leaf, int, root], { hostname: "192.0.2.20" })).result;
    const mismatch = mapped.problems.find((p) => p.code === "HOSTNAME_MISMATCH")!;
    expect(mismatch).toMatchObject({ severity: "error", certificateIndexes: [0] });
    expect(mismatch.observed).toContain("192.0.2.10 and ::ffff:192.0.2.20");
    const byName = (await run([leaf, int, root], { hostname: "api.example.com" })).result;
    expect(byName.problems.find((p) => p.code === "HOSTNAME_MISMATCH")!.observed).toContain(
      "www.example.com",
    );
  });

  test("digits and dots that are not IPv4 are INVALID_INPUT at hostname", async () => {
    const { leaf } = hierarchy();
    for (const hostname of ["1.2.3", "010.0.0.1", "192.0.2.256"]) {
      const error = await rejection([leaf], { hostname });
      expect(error.issues).toEqual([{ message: expect.any(String), path: ["hostname"] }]);
    }
  });
});

describe("expiry", () => {
  // A leaf every client accepts but for its dates (a SAN, under 825 days: no CONTRACT §8.1 problem).
  const leafAt = (notAfter: string) =>
    makeCertificate({
      subject: "CN=self.example",
      sans: ["self.example"],
      notBefore: "2025-06-01T00:00:00Z",
      notAfter,
    });

  test("expiresInDays is floor((notAfter − evaluatedAt) / 86400 s), negative once expired", async () => {
    const cases: [string, number][] = [
      ["2026-01-04T00:00:00Z", 3],
      ["2026-01-03T23:59:59Z", 2],
      ["2026-01-01T00:00:00Z", 0],
      ["2025-12-31T23:59:59Z", -1],
      ["2025-12-30T00:00:00Z", -2],
    ];
    for (const [notAfter, days] of cases) {
      const { result } = await run([leafAt(notAfter)]);
      expect([notAfter, result.certificates[0]!.expiresInDays]).toEqual([notAfter, days]);
    }
  });

  test("EXPIRED below 0, EXPIRING from 0 to expiryWarningDays − 1 (default 30), 0 turns it off", async () => {
    const of = async (notAfter: string, expiryWarningDays?: number) =>
      codes(
        (await run([leafAt(notAfter)], expiryWarningDays === undefined ? {} : { expiryWarningDays })).result,
      );
    expect(await of("2025-12-31T23:59:59Z")).toEqual(["EXPIRED"]);
    expect(await of("2026-01-01T00:00:00Z")).toEqual(["EXPIRING"]);
    expect(await of("2026-01-30T23:59:59Z")).toEqual(["EXPIRING"]);
    expect(await of("2026-01-31T00:00:00Z")).toEqual([]);
    expect(await of("2026-01-04T00:00:00Z", 3)).toEqual([]);
    expect(await of("2026-01-03T23:59:59Z", 3)).toEqual(["EXPIRING"]);
    expect(await of("2026-01-01T00:00:00Z", 0)).toEqual([]);
    const error = await rejection([leafAt("2030-01-01T00:00:00Z")], { expiryWarningDays: 3651 });
    expect(error.issues[0]!.path).toEqual(["expiryWarningDays"]);
  });

  test("NOT_YET_VALID for a member whose notBefore is after evaluatedAt", async () => {
    const future = makeCertificate({
      subject: "CN=f.example",
      sans: ["f.example"],
      notBefore: "2026-06-01T00:00:00Z",
    });
    const { result } = await run([future]);
    expect(result.problems.map((p) => [p.code, p.severity])).toEqual([["NOT_YET_VALID", "error"]]);
  });
});

describe("order, repeats, unneeded certificates", () => {
  test("WRONG_ORDER is an error when position 0 is not the leaf, a warning when only the issuers are out of order", async () => {
    const { root, int, leaf } = hierarchy();
    const top = makeCertificate({ subject: "CN=Top", issuer: "CN=Root,O=Example", ca: true });
    const mid = makeCertificate({
      subject: "CN=Int,O=Example",
      issuer: "CN=Top",
      ca: true,
      key: "key:CN=Int,O=Example",
      variant: "mid",
    });
    const first = (await run([int, leaf, root])).result.problems[0]!;
    expect(first).toMatchObject({ code: "WRONG_ORDER", severity: "error", certificateIndexes: [1, 0, 2] });
    const issuers = (await run([leaf, root, top, mid])).result;
    expect(issuers.path).toEqual([0, 3, 2, 1]);
    expect(issuers.problems[0]).toMatchObject({ code: "WRONG_ORDER", severity: "warning" });
    // Repeats and unneeded certificates in between do not count as disorder.
    const stranger = makeCertificate({ subject: "CN=Stranger", ca: true });
    expect(codes((await run([leaf, stranger, int, leaf, root])).result)).toEqual([
      "DUPLICATE_CERTIFICATE",
      "UNNEEDED_CERTIFICATE",
      "ROOT_INCLUDED",
    ]);
  });

  test("problems are ordered by severity, first index, code, other indexes (fast-check against a sort)", async () => {
    const { root, int, leaf } = hierarchy();
    const stranger = makeCertificate({ subject: "CN=Stranger", ca: true });
    const pool = [leaf, int, root, stranger, int, root];
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(pool, { minLength: 1 }), async (bundle) => {
        const { result } = await run(bundle);
        const rank = { error: 0, warning: 1, info: 2 };
        const sorted = [...result.problems].sort(
          (a, b) =>
            rank[a.severity] - rank[b.severity] ||
            (a.certificateIndexes[0] ?? -1) - (b.certificateIndexes[0] ?? -1),
        );
        expect(result.problems.map((p) => [p.severity, p.certificateIndexes[0]])).toEqual(
          sorted.map((p) => [p.severity, p.certificateIndexes[0]]),
        );
        // Every position is accounted for: on the path, a repeat, unneeded, or an included root.
        if (result.path.length > 0) {
          const covered = new Set<number>(result.path);
          for (const p of result.problems) {
            if (["UNNEEDED_CERTIFICATE", "ROOT_INCLUDED"].includes(p.code))
              covered.add(p.certificateIndexes[0]!);
            if (p.code === "DUPLICATE_CERTIFICATE") covered.add(p.certificateIndexes[1]!);
          }
          const firstOf = new Map<string, number>();
          bundle.forEach((c, k) => {
            if (!firstOf.has(c.fingerprintSha256)) firstOf.set(c.fingerprintSha256, k);
          });
          bundle.forEach((c, k) => {
            if (!covered.has(k))
              expect(result.path.map((p) => bundle[p]!.fingerprintSha256)).toContain(c.fingerprintSha256);
          });
        }
      }),
      { numRuns: 200 },
    );
  });

  test("fullchainPem: 64-character base64 lines, \\n endings, a final \\n, nothing else", async () => {
    const { root, int, leaf } = hierarchy();
    const { result } = await run([int, root, leaf]);
    expect(result.fullchainPem).toMatch(
      /^(-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n)+$/,
    );
    expect(result.fullchainPem).not.toContain("\r");
  });
});
