/**
 * CONTRACT §4.3 Wording and `issuerIsKnownRoot`: certificates named by position and CN (or first
 * subject attribute, or position alone), the leaf's DNS names on a hostname mismatch, advice that
 * fits the certificate's role, and the known-root hint from the injected root store.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { MAX_LISTED_DNS_NAMES } from "../../src/domain/certificates/findings.ts";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import {
  certificateName,
  listSome,
  nameLabel,
  splitAttributes,
} from "../../src/domain/certificates/wording.ts";
import { makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { chain, findingsOf, run } from "./certificate-helpers.ts";

describe("naming certificates", () => {
  test.each([
    ["CN=R11,O=Let's Encrypt,C=US", 1, "certificate 1 (CN=R11)"],
    ["O=Example\\, Inc.,C=US", 2, "certificate 2 (O=Example\\, Inc.)"],
    ["UID=7+CN=multi,O=x", 0, "certificate 0 (CN=multi)"],
    ["", 3, "certificate 3"],
  ])("%j at %d is %j", (subject, index, expected) => {
    expect(certificateName(makeCertificate({ subject, commonName: null }), index)).toBe(expected);
  });

  test("attributes split at unescaped commas and plus signs only", () => {
    expect(splitAttributes("CN=a\\,b+OU=c\\+d,O=e")).toEqual(["CN=a\\,b", "OU=c\\+d", "O=e"]);
    expect(nameLabel("")).toBeNull();
  });

  test("control characters never reach a sentence; very long names are shortened", () => {
    expect(nameLabel("CN=a\nb")).toBe("CN=a?b");
    const long = nameLabel(`CN=${"x".repeat(200)}`)!;
    expect(long.length).toBe(65);
    expect(long.endsWith("…")).toBe(true);
  });

  test("lists: at most the limit, then how many more", () => {
    expect(listSome([], 10)).toBe("");
    expect(listSome(["a"], 10)).toBe("a");
    expect(listSome(["a", "b", "c"], 10)).toBe("a, b and c");
    expect(listSome(["a", "b", "c", "d"], 2)).toBe("a, b and 2 more");
  });

  test("findings name certificates by position and CN, never by index alone", async () => {
    const { root, intermediate, leaf } = chain();
    const stray = makeCertificate({ subject: "O=No Common Name", issuer: "CN=Missing CA" });
    const { result } = await run([leaf, intermediate, leaf, stray, root], { hostname: "other.example" });
    for (const finding of result.findings) {
      for (const sentence of [finding.observed, finding.nextAction]) {
        expect(sentence).not.toMatch(/certificates? \d+(?! \([A-Za-z0-9.]+=)/i);
        expect(sentence).not.toMatch(/positions? \d/i);
      }
    }
    expect(findingsOf(result, "DUPLICATE_CERTIFICATE")[0]!.observed).toStartWith(
      "Certificate 2 (CN=www.example.com) repeats certificate 0 (CN=www.example.com)",
    );
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE")[0]!.observed).toStartWith(
      "Certificate 3 (O=No Common Name) was issued by CN=Missing CA",
    );
  });
});

describe("issuerIsKnownRoot", () => {
  const { root, intermediate, leaf } = chain();

  test("a root left out that the store knows: true, and nothing to add", async () => {
    const { result, pem } = await run([leaf, intermediate], { knownRoots: [root] });
    const [finding] = findingsOf(result, "ISSUER_NOT_IN_BUNDLE");
    expect(finding!.evidence).toEqual({
      issuer: "CN=Example Root,O=Example",
      issuerIsKnownRoot: true,
      caIssuersUrl: null,
    });
    expect(finding!.observed).toContain("is a root in the reference root store");
    expect(finding!.nextAction).toStartWith("Nothing needs adding");
    expect(pem).not.toContain("Example Root");
  });

  test("a missing intermediate: false, and the issuer to add is named by its CN", async () => {
    const { result } = await run([leaf, root], { knownRoots: [root] });
    const [finding] = findingsOf(result, "ISSUER_NOT_IN_BUNDLE");
    expect(finding!.certificateIndexes).toEqual([0]);
    expect(finding!.evidence.issuerIsKnownRoot).toBe(false);
    expect(finding!.observed).toContain("an intermediate CA certificate is most likely missing");
    expect(finding!.nextAction).toStartWith(
      "Add the certificate of CN=Example Intermediate to the bundle right after certificate 0 (CN=www.example.com)",
    );
  });

  test("the name matches but the authority key id names another key: false", async () => {
    const rekeyed = makeCertificate({
      ...{ subject: "CN=Example Root,O=Example" },
      ca: true,
      subjectKeyIdentifier: "EE:EE",
    });
    const { result } = await run([leaf, intermediate], { knownRoots: [rekeyed] });
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE")[0]!.evidence.issuerIsKnownRoot).toBe(false);
  });

  test("no authority key id on the child, or no subject key id on the root: the name decides", async () => {
    const child = makeCertificate({ subject: "CN=child", issuer: "CN=Example Root,O=Example" });
    const { result } = await run([child], { knownRoots: [root] });
    expect(findingsOf(result, "ISSUER_NOT_IN_BUNDLE")[0]!.evidence.issuerIsKnownRoot).toBe(true);
    const bare = makeCertificate({ subject: "CN=Example Root,O=Example", ca: true });
    const { result: other } = await run([leaf, intermediate], { knownRoots: [bare] });
    expect(findingsOf(other, "ISSUER_NOT_IN_BUNDLE")[0]!.evidence.issuerIsKnownRoot).toBe(true);
  });

  test("candidates whose signature failed: the finding says so and still asks the store", async () => {
    const impostor = makeCertificate({
      subject: "CN=Example Intermediate,O=Example",
      ca: true,
      key: "other",
    });
    const { result } = await run([leaf, impostor]);
    const [finding] = findingsOf(result, "ISSUER_NOT_IN_BUNDLE");
    expect(finding!.observed).toContain(
      "no certificate in the bundle with that name has a key that verifies",
    );
    expect(finding!.evidence.issuerIsKnownRoot).toBe(false);
  });
});

describe("HOSTNAME_MISMATCH lists the leaf's DNS names", () => {
  test("every name when there are a few, IP addresses left out", async () => {
    const leaf = makeCertificate({
      subject: "CN=leaf",
      issuer: "CN=CA",
      sans: ["a.example", { type: "ip", value: "192.0.2.1" }, "*.b.example"],
    });
    const { result } = await run([leaf], { hostname: "c.example" });
    expect(findingsOf(result, "HOSTNAME_MISMATCH")[0]!.observed).toBe(
      "None of the 2 DNS subjectAltNames of certificate 0 (CN=leaf) matches the hostname; it covers a.example and *.b.example.",
    );
  });

  test(`at most ${MAX_LISTED_DNS_NAMES}, then how many more`, async () => {
    const sans = Array.from({ length: 13 }, (_, i) => `n${i}.example`);
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA", sans });
    const { result } = await run([leaf], { hostname: "c.example" });
    const [finding] = findingsOf(result, "HOSTNAME_MISMATCH");
    expect(finding!.observed).toEndWith(`covers ${sans.slice(0, 10).join(", ")} and 3 more.`);
    expect(finding!.evidence.dnsNameCount).toBe(13);
  });
});

describe("advice fits the role", () => {
  const expired = { notBefore: "2020-01-01T00:00:00Z", notAfter: "2021-01-01T00:00:00Z" };

  test("an expired leaf is renewed", async () => {
    const leaf = makeCertificate({ subject: "CN=leaf", issuer: "CN=CA", ...expired });
    const { result } = await run([leaf]);
    expect(findingsOf(result, "CERTIFICATE_EXPIRED")[0]!.nextAction).toBe(
      "Renew certificate 0 (CN=leaf) and deploy the renewed certificate in its place.",
    );
  });

  test("an expired intermediate is fetched again from its issuer, not renewed", async () => {
    const { root, leaf } = chain();
    const intermediate = makeCertificate({
      subject: "CN=Example Intermediate,O=Example",
      issuer: "CN=Example Root,O=Example",
      ca: true,
      ...expired,
    });
    const { result } = await run([leaf, intermediate, root]);
    const [finding] = findingsOf(result, "CERTIFICATE_EXPIRED");
    expect(finding!.observed).toStartWith(
      "Certificate 1 (CN=Example Intermediate), an intermediate CA certificate, expired at",
    );
    expect(finding!.nextAction).toBe(
      "Fetch the current certificate of this intermediate CA from its issuer (CN=Example Root) and put it in place of certificate 1 (CN=Example Intermediate); a renewed leaf does not fix an expired intermediate.",
    );
    expect(finding!.nextAction).not.toContain("Renew");
  });

  test("an expired root is replaced by the CA's current root or left out", async () => {
    const root = makeCertificate({ subject: "CN=Old Root", ca: true, ...expired });
    const { result } = await run([root]);
    expect(findingsOf(result, "CERTIFICATE_EXPIRED")[0]!.nextAction).toStartWith(
      "Replace certificate 0 (CN=Old Root) with the current root of the same CA, or leave the root out",
    );
  });

  test("a not-yet-valid CA: use the one valid now, from its issuer", async () => {
    const ca = makeCertificate({
      subject: "CN=Future CA",
      issuer: "CN=Root",
      ca: true,
      notBefore: "2030-01-01T00:00:00Z",
    });
    const { result } = await run([ca]);
    expect(findingsOf(result, "CERTIFICATE_NOT_YET_VALID")[0]!.nextAction).toStartWith(
      "Use the CA certificate that is valid now in place of certificate 0 (CN=Future CA): fetch the current one from its issuer (CN=Root)",
    );
  });

  test("a bundle whose only certificate is a self-signed CA explains openssl req -x509", async () => {
    const selfSigned = makeCertificate({ subject: "CN=test.local", ca: true });
    for (const bundle of [[selfSigned], [selfSigned, selfSigned]]) {
      const { result } = await run(bundle);
      const [finding] = findingsOf(result, "NO_LEAF_CERTIFICATE");
      expect(finding!.observed).toBe(
        "The only certificate, certificate 0 (CN=test.local), is a self-signed CA certificate, so none could serve as a leaf; openssl req -x509 makes CA certificates (basicConstraints CA:TRUE) unless told otherwise.",
      );
      expect(finding!.nextAction).toContain("-addext basicConstraints=critical,CA:FALSE");
      expect(finding!.nextAction).toContain("sign a separate leaf with it");
    }
  });

  test("a lone CA that is not self-issued, and several CAs, get the generic advice", async () => {
    const { root, intermediate } = chain();
    const { result } = await run([intermediate]);
    expect(findingsOf(result, "NO_LEAF_CERTIFICATE")[0]!.observed).toBe(
      "The only certificate, certificate 0 (CN=Example Intermediate), is a CA certificate, so no certificate could serve as a leaf.",
    );
    const { result: two } = await run([intermediate, root]);
    expect(findingsOf(two, "NO_LEAF_CERTIFICATE")[0]!.nextAction).toBe(
      "Add the server's own (leaf) certificate to the bundle, by convention as the first block.",
    );
  });
});

describe("real openssl output", () => {
  test("openssl req -x509 with its defaults: a CA, and the advice says how to make a leaf", async () => {
    const result = await inspectCertificateBundle(
      { pem: certPem("req-x509-default") },
      {
        clock: fixedClock(new Date()),
        decoder: new DerCertificateDecoder(),
        verifier: new NodeSignatureVerifier(),
        roots: noKnownRoots,
      },
    );
    expect(result.certificates[0]!.ca).toBe(true);
    expect(result.certificates[0]!.selfSignature).toBe("verified");
    const [finding] = findingsOf(result, "NO_LEAF_CERTIFICATE");
    expect(finding!.observed).toContain("certificate 0 (CN=test.local), is a self-signed CA certificate");
    expect(finding!.nextAction).toContain("-addext basicConstraints=critical,CA:FALSE");
  });
});
