/** The CLI's and the page's additions to a certificate answer (src/client/certificate-answers.ts). */
import { describe, expect, test } from "bun:test";
import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
} from "../../src/client/certificate-answers.ts";
import type { Finding } from "../../src/client/index.ts";
import { PRIVATE_KEY_MESSAGE } from "../../src/domain/certificates/pem.ts";

const KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+SECRET\n-----END PRIVATE KEY-----";

describe("privateKeyRefusal", () => {
  test("null without a key", () => {
    expect(
      privateKeyRefusal("-----BEGIN CERTIFICATE-----\nMAMCAQU=\n-----END CERTIFICATE-----\n"),
    ).toBeNull();
    expect(privateKeyRefusal("")).toBeNull();
  });

  test("one key: the server's envelope, located at the whole block, nothing of the key in it", () => {
    const pem = `\n\n${KEY}\n`;
    expect(privateKeyRefusal(pem)).toEqual({
      code: "INVALID_INPUT",
      message: PRIVATE_KEY_MESSAGE,
      issues: [
        {
          message: PRIVATE_KEY_MESSAGE,
          path: ["pem"],
          location: { line: 3, offset: 2, end: 2 + KEY.length },
        },
      ],
    });
    expect(JSON.stringify(privateKeyRefusal(pem))).not.toContain("SECRET");
  });

  test("two keys: one issue each and the server's count message", () => {
    const refusal = privateKeyRefusal(`${KEY}\n${KEY.replaceAll("PRIVATE KEY", "EC PRIVATE KEY")}`);
    expect(refusal!.message).toBe("The request has 2 invalid values.");
    expect(refusal!.issues!.map((issue) => issue.location!.line)).toEqual([1, 4]);
  });
});

describe("missingIntermediates", () => {
  const finding = (code: Finding["code"], evidence: Finding["evidence"]): Finding => ({
    code,
    severity: "info",
    certificateIndexes: [0],
    observed: "Certificate 0 (CN=x) was issued by CN=y.",
    evidence,
    nextAction: "Add it.",
  });

  test("only ISSUER_NOT_IN_BUNDLE whose issuer is not a known root", () => {
    const missing = finding("ISSUER_NOT_IN_BUNDLE", { issuer: "CN=y", issuerIsKnownRoot: false });
    const known = finding("ISSUER_NOT_IN_BUNDLE", { issuer: "CN=y", issuerIsKnownRoot: true });
    const other = finding("SELF_SIGNED_CERTIFICATE", { ca: true });
    expect(missingIntermediates([known, missing, other])).toEqual([missing]);
    expect(missingIntermediateWarning(missing)).toBe(
      "The chain looks incomplete. Certificate 0 (CN=x) was issued by CN=y.",
    );
  });
});
