/**
 * How `nettools chain` words a verdict (CONTRACT §7.6): a missing issuer is "missing issuer CN=…",
 * never an anchor; a supplied root is the user's own.
 */
import { describe, expect, test } from "bun:test";
import { renderChain, renderChainVerdict } from "../../src/cli/render-chain.ts";
import { PLAIN } from "../../src/cli/style.ts";
import { buildCertificateChain } from "../../src/domain/certificates/chain.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { withClients } from "../../src/local/client-names.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const root = makeCertificate({ subject: "CN=Own Root", ca: true });
const int = makeCertificate({
  subject: "CN=Own Int",
  issuer: "CN=Own Root",
  ca: true,
  caIssuersUrls: ["http://pki.example/root.cer"],
});
const leaf = makeCertificate({ subject: "CN=app.example", issuer: "CN=Own Int", sans: ["app.example"] });

async function chainOf(certificates: CertificateData[], supplied: CertificateData[] = []) {
  return buildCertificateChain(
    { pem: bundleOf(certificates), ...(supplied.length ? { roots: bundleOf(supplied) } : {}) },
    {
      clock: fixedClock("2026-01-01T00:00:00Z"),
      decoder: fakeDecoder([...certificates, ...supplied]),
      verifier: scriptedVerifier(),
      roots: fakeRootStore(),
    },
  );
}

describe("render-chain words", () => {
  test("an incomplete chain names its missing issuer, not an anchor", async () => {
    const result = await chainOf([leaf, int]);
    const text = renderChain(result, PLAIN);
    expect(renderChainVerdict(result, PLAIN)).toBe("Chain incomplete: missing issuer CN=Own Root.");
    expect(text).toMatch(/^missing issuer +CN=Own Root$/m);
    expect(text).toMatch(/^issuer published at +http:\/\/pki\.example\/root\.cer$/m);
    expect(text).not.toMatch(/anchor|\(missing\)/);
  });

  test("a supplied root is the user's own root", async () => {
    const result = await chainOf([leaf, int], [root]);
    expect(renderChainVerdict(result, PLAIN)).toBe("Chain complete, anchored at your own root.");
    expect(renderChain(result, PLAIN)).toMatch(/^anchor +CN=Own Root \(your own root\)$/m);
  });

  test("each problem opens with the clients that refuse it (CONTRACT §8.1)", async () => {
    expect(withClients(["apple"], "Certificate 0 (CN=x) has validity 826 days.")).toBe(
      "Safari and macOS refuse this: Certificate 0 (CN=x) has validity 826 days.",
    );
    expect(withClients(["chrome"], "X.")).toBe("Chrome refuses this: X.");
    expect(withClients(["openssl"], "X.")).toBe("OpenSSL clients refuse this: X.");
    expect(withClients(["chrome", "firefox", "apple", "go", "openssl"], "X.")).toBe(
      "Chrome, Firefox, Safari, macOS, Go programs and OpenSSL clients refuse this: X.",
    );
    expect(withClients([], "X.")).toBe("X.");
    const noSan = makeCertificate({ subject: "CN=bare.example", issuer: "CN=Own Int", sans: [] });
    const text = renderChain(await chainOf([noSan, int], [root]), PLAIN);
    expect(text).toContain(
      "Chrome, Safari, macOS and Go programs refuse this: Certificate 0 (CN=bare.example) has no subjectAltName",
    );
  });
});
