/**
 * The page's certificate picker reads PKCS#12 files in the browser (CONTRACT §10.3), with the
 * CLI's reader on WebCrypto alone: files from `openssl pkcs12 -export` give their certificates in
 * file order with a notice, and never their key; a missing or wrong password, a legacy file and
 * a file asking for 20,000,000 iterations are one-line refusals that name the way out. The page
 * sends only the PEM text the picker puts in the box, so nothing else can leave it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { readCertificateFiles } from "../../src/web/certificate-inputs.ts";
import { makePkcs12Files, P12_PASSWORD, type Pkcs12Files } from "../support/pkcs12-files.ts";

let files: Pkcs12Files;
beforeAll(() => {
  files = makePkcs12Files();
}, 60_000);

const fileOf = (path: string) => new File([readFileSync(path)], basename(path));

describe("the page's picker and PKCS#12", () => {
  test("the certificates in file order, PEM, with a notice; no key, no password in the text", async () => {
    const read = await readCertificateFiles([fileOf(files.modern)], P12_PASSWORD);
    if (typeof read === "string") throw new Error(read);
    const blocks = read.pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n/g) ?? [];
    const expected = files.certificatesPem.match(
      /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n/g,
    );
    expect(blocks).toEqual(expected!);
    expect(read.pem).not.toContain("PRIVATE KEY");
    expect(read.pem + read.notices.join("")).not.toContain(P12_PASSWORD);
    expect(read.notices.join("\n")).toContain("PKCS#12");
  });

  test("refusals in one line: no password, a wrong one, the legacy format, too many iterations", async () => {
    const none = await readCertificateFiles([fileOf(files.modern)]);
    expect(none).toContain("PKCS#12 password field");
    const wrong = await readCertificateFiles([fileOf(files.modern)], "not-the-password");
    expect(wrong).toContain("password is wrong");
    expect(String(wrong)).not.toContain("not-the-password");
    const legacy = await readCertificateFiles([fileOf(files.legacy)], P12_PASSWORD);
    expect(legacy).toContain("openssl pkcs12 -legacy -in legacy.p12");
    const started = performance.now();
    const heavy = await readCertificateFiles([fileOf(files.tooManyIterations)], P12_PASSWORD);
    expect(heavy).toContain("10,000,000");
    expect(performance.now() - started).toBeLessThan(500);
    // A file exported with the empty password needs none.
    expect(typeof (await readCertificateFiles([fileOf(files.unprotected)]))).toBe("object");
  });
});
