/**
 * The parts of the certificate watch (CONTRACT §10.1) that read: CERT_WATCH and its interval in
 * the configuration, which files a directory gives (one level, through symbolic links, by name),
 * a file's bytes as certificates (PEM, DER, PKCS#7; keys set aside), the labels enix's exporter
 * writes (the issuer's CN, the serial in decimal) and the exposition, checked by Prometheus's own
 * parser (`promtool check metrics`).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import {
  certificateTextOf,
  decimalSerial,
  lastCommonName,
} from "../../src/certificate-watch/certificate-file.ts";
import {
  CHAIN_STATUSES,
  escapeLabelValue,
  type FileReport,
  renderCertificateExposition,
} from "../../src/certificate-watch/exposition.ts";
import {
  isCertificateFileName,
  listWatchedFiles,
  MAX_WATCHED_FILES,
  startProblem,
} from "../../src/certificate-watch/watched-files.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { certDer, certNames, certPem, chainDers } from "../fixtures/fixtures.ts";
import { privateKey } from "../support/secret-mount.ts";

describe("CERT_WATCH in the configuration", () => {
  test("off when unset, empty or only commas; entries trimmed, in order", () => {
    expect(loadConfig({}, 1).certWatch).toBeNull();
    expect(loadConfig({ CERT_WATCH: " , ,", METRICS_PORT: "9464" }, 1).certWatch).toBeNull();
    expect(loadConfig({ CERT_WATCH: " /a/b ,/c.pem,, ", METRICS_PORT: "9464" }, 1).certWatch).toEqual({
      paths: ["/a/b", "/c.pem"],
      intervalSeconds: 60,
    });
  });

  test("CERT_WATCH_INTERVAL_SECONDS is 5 to 86400", () => {
    const interval = (value: string) =>
      loadConfig({ CERT_WATCH: "/x", METRICS_PORT: "9464", CERT_WATCH_INTERVAL_SECONDS: value }, 1).certWatch
        ?.intervalSeconds;
    expect(interval("5")).toBe(5);
    expect(interval("86400")).toBe(86_400);
    for (const bad of ["4", "86401", "1.5", "60s", "-5"])
      expect(() => interval(bad)).toThrow(
        /CERT_WATCH_INTERVAL_SECONDS must be a whole number from 5 to 86400/,
      );
  });

  test("METRICS_PORT is required with CERT_WATCH", () => {
    expect(() => loadConfig({ CERT_WATCH: "/etc/tls" }, 1)).toThrow(ConfigError);
    expect(() => loadConfig({ CERT_WATCH: "/etc/tls", METRICS_PORT: " " }, 1)).toThrow(
      /CERT_WATCH needs METRICS_PORT/,
    );
  });
});

describe("which files a CERT_WATCH entry gives", () => {
  test("certificate names: *.pem, *.crt, *.cer, *.der, *.p7b, *.p7c (tls.crt, ca.crt), any case", () => {
    for (const name of ["tls.crt", "ca.crt", "a.pem", "b.cer", "c.der", "d.p7b", "e.p7c", "F.CER", "x.y.PEM"])
      expect(isCertificateFileName(name)).toBe(true);
    for (const name of ["tls.key", "..data", "pem", "a.pem.bak", "a.crt~", "key.p12", "README", "a.pemx"])
      expect(isCertificateFileName(name)).toBe(false);
  });

  test("a directory one level deep through symbolic links; a named file whatever its name; missing entries", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watched-files-"));
    const mount = join(dir, "mount");
    mkdirSync(join(mount, "..2026_a", "nested"), { recursive: true });
    for (const name of ["tls.crt", "tls.key", "ca.crt"]) writeFileSync(join(mount, "..2026_a", name), name);
    writeFileSync(join(mount, "..2026_a", "nested", "deep.pem"), "x");
    symlinkSync("..2026_a", join(mount, "..data"));
    for (const name of ["tls.crt", "tls.key", "ca.crt"]) symlinkSync(join("..data", name), join(mount, name));
    symlinkSync("..data/missing.pem", join(mount, "dangling.pem"));
    mkdirSync(join(mount, "sub.pem")); // a directory named like a file: not read
    writeFileSync(join(dir, "server.key-and-cert"), "x");
    const listing = await listWatchedFiles([mount, join(dir, "server.key-and-cert"), join(dir, "absent")]);
    expect(listing.files).toEqual([
      join(mount, "ca.crt"),
      join(mount, "tls.crt"),
      join(dir, "server.key-and-cert"),
    ]);
    expect(listing.missing).toEqual([join(dir, "absent")]);
    expect(startProblem(listing)).toBe(
      `CERT_WATCH names ${JSON.stringify(join(dir, "absent"))}, which does not exist or is not a readable file or directory`,
    );
    expect(startProblem({ files: ["/a"], missing: [] })).toBeNull();
    const many = Array.from({ length: MAX_WATCHED_FILES + 1 }, (_, index) => `/f${index}.pem`);
    expect(startProblem({ files: many, missing: [] })).toBe(
      "CERT_WATCH finds 1001 certificate files; at most 1000 can be watched",
    );
    expect(startProblem({ files: many.slice(1), missing: [] })).toBeNull();
  });
});

describe("a watched file's bytes, read as §7.6 reads a certificate file", () => {
  const pemBlocks = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;

  test("PEM, DER and PKCS#7 give their certificates; a key is set aside, a key-only file is not an error", async () => {
    const key = await privateKey();
    const leaf = certPem("leaf-rsa");
    const pem = certificateTextOf(new TextEncoder().encode(leaf + key.pem), "a.pem");
    expect(pem.kind).toBe("certificates");
    if (pem.kind !== "certificates") return;
    expect(pemBlocks(pem.pem)).toBe(1);
    for (const leak of key.leaks) expect(pem.pem).not.toContain(leak);
    const der = certificateTextOf(certDer("leaf-rsa"), "a.der");
    expect(der.kind === "certificates" && pemBlocks(der.pem)).toBe(1);
    const concatenated = chainDers("rsa-sha256");
    const joined = new Uint8Array(concatenated.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of concatenated) {
      joined.set(part, at);
      at += part.length;
    }
    const several = certificateTextOf(joined, "chain.der");
    expect(several.kind === "certificates" && pemBlocks(several.pem)).toBe(concatenated.length);
    expect(certificateTextOf(new TextEncoder().encode(key.pem), "privkey.pem")).toEqual({ kind: "key-only" });
    expect(certificateTextOf(key.der, "key.der")).toEqual({ kind: "key-only" });
    const ecparam = Bun.spawnSync(["openssl", "ecparam", "-name", "prime256v1", "-genkey"]);
    expect(ecparam.stdout.toString()).toContain("-----BEGIN EC PARAMETERS-----");
    expect(certificateTextOf(ecparam.stdout, "ec.pem")).toEqual({ kind: "key-only" });
    const request = "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n";
    expect(certificateTextOf(new TextEncoder().encode(request), "req.pem")).toEqual({
      kind: "unreadable",
      reason: "no certificate in the file",
    });
  });

  test("not a certificate: a reason with a position, never the bytes", () => {
    const binary = Uint8Array.from([0x01, 0x02, 0xfe, 0xab, 0xcd, 0xef, 0x99]);
    const read = certificateTextOf(binary, "x.der");
    expect(read).toEqual({
      kind: "unreadable",
      reason: "binary data from byte 0, not a certificate (PEM, DER or PKCS#7)",
    });
    expect(certificateTextOf(new TextEncoder().encode("hello\n"), "x.pem")).toEqual({
      kind: "unreadable",
      reason: "no certificate in the file",
    });
  });
});

describe("enix's labels", () => {
  test("issuer_CN / subject_CN: the last CN of an RFC 4514 name, as the decoder's commonName of every fixture", async () => {
    const decoder = new DerCertificateDecoder();
    let compared = 0;
    for (const name of certNames()) {
      const decoded = await decoder.decode(certDer(name));
      if (!decoded.ok) continue;
      expect(`${name}: ${lastCommonName(decoded.certificate.subject)}`).toBe(
        `${name}: ${decoded.certificate.commonName}`,
      );
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
  });

  test("RFC 4514 escapes and multi-valued RDNs", () => {
    expect(lastCommonName('CN=a\\,b\\+c\\\\d\\"e,O=x')).toBe('a,b+c\\d"e');
    expect(lastCommonName("OU=u+CN=inner,CN=outer")).toBe("inner");
    expect(lastCommonName("CN=caf\\C3\\A9,C=FR")).toBe("café");
    expect(lastCommonName("CN=\\#1\\ ")).toBe("#1 ");
    expect(lastCommonName("O=only")).toBeNull();
    expect(lastCommonName("")).toBeNull();
    expect(lastCommonName("CN=日本")).toBe("日本");
  });

  test("serial_number in decimal, as Go's big.Int writes it (fast-check against schoolbook conversion)", () => {
    const schoolbook = (hex: string): string => {
      let digits = [0];
      for (const character of hex) {
        let carry = Number.parseInt(character, 16);
        digits = digits.map((digit) => {
          const value = digit * 16 + carry;
          carry = Math.floor(value / 10);
          return value % 10;
        });
        while (carry > 0) {
          digits.push(carry % 10);
          carry = Math.floor(carry / 10);
        }
      }
      const text = digits
        .reverse()
        .join("")
        .replace(/^0+(?=.)/, "");
      return text;
    };
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-F]{1,40}$/), fc.boolean(), (hex, negative) => {
        const expected = schoolbook(hex);
        const signed = negative && expected !== "0" ? `-${expected}` : expected;
        expect(decimalSerial(negative ? `-${hex}` : hex)).toBe(signed);
      }),
    );
    expect(decimalSerial("0100")).toBe("256");
  });
});

describe("the exposition", () => {
  const report = (filepath: string, overrides: Partial<FileReport> = {}): FileReport => ({
    filepath,
    certificates: [
      { subjectCN: "www", issuerCN: "CA", serialNumber: "17", notBefore: 1_000, notAfter: 2_000 },
      { subjectCN: "CA", issuerCN: "Root", serialNumber: "3", notBefore: 500, notAfter: 9_000 },
    ],
    chain: {
      status: "complete",
      problems: [{ code: "EXPIRING", severity: "warning", count: 1 }],
      earliestExpiry: 2_000,
    },
    ...overrides,
  });

  test("enix's families and help, the chain's series, expired at the instant given", () => {
    const text = renderCertificateExposition(
      [report("/b/tls.crt"), report("/a/tls.crt")],
      new Map([["/a/tls.crt", 2]]),
      2_001,
    );
    const lines = text.split("\n");
    expect(lines).toContain("# HELP x509_cert_not_after Indicates the certificate's not after timestamp");
    expect(lines).toContain("# TYPE x509_read_errors counter");
    expect(lines).toContain(
      'x509_cert_not_after{filepath="/a/tls.crt",subject_CN="www",issuer_CN="CA",serial_number="17"} 2000',
    );
    expect(lines).toContain(
      'x509_cert_not_before{filepath="/a/tls.crt",subject_CN="CA",issuer_CN="Root",serial_number="3"} 500',
    );
    expect(lines).toContain(
      'x509_cert_expired{filepath="/a/tls.crt",subject_CN="www",issuer_CN="CA",serial_number="17"} 1',
    );
    expect(lines).toContain(
      'x509_cert_expired{filepath="/a/tls.crt",subject_CN="CA",issuer_CN="Root",serial_number="3"} 0',
    );
    expect(lines).toContain('x509_read_errors{filepath="/a/tls.crt"} 2');
    expect(
      lines.filter((line) => line.startsWith('network_tools_chain_status{filepath="/a/tls.crt"')),
    ).toEqual(
      CHAIN_STATUSES.map(
        (status) =>
          `network_tools_chain_status{filepath="/a/tls.crt",status="${status}"} ${status === "complete" ? 1 : 0}`,
      ),
    );
    expect(lines).toContain(
      'network_tools_chain_problems{filepath="/a/tls.crt",code="EXPIRING",severity="warning"} 1',
    );
    expect(lines).toContain('network_tools_chain_earliest_expiry_seconds{filepath="/a/tls.crt"} 2000');
    // Files in path order.
    expect(text.indexOf('filepath="/a/tls.crt"')).toBeLessThan(text.indexOf('filepath="/b/tls.crt"'));
  });

  test("label values escaped; a certificate repeated in a file written once; Prometheus's parser accepts it", async () => {
    const odd = 'a"b\\c\nd';
    expect(escapeLabelValue(odd)).toBe('a\\"b\\\\c\\nd');
    const base = report(`/tls/${odd}.pem`);
    const repeated = { ...base, certificates: [...base.certificates, ...base.certificates] };
    const noPath = report("/c.pem", { chain: { status: "no-leaf", problems: [], earliestExpiry: null } });
    const text = renderCertificateExposition([repeated, noPath], new Map([[repeated.filepath, 0]]), 0);
    const samples = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    expect(new Set(samples.map((line) => line.slice(0, line.lastIndexOf(" ")))).size).toBe(samples.length);
    expect(samples.filter((line) => line.startsWith("x509_cert_not_after"))).toHaveLength(4);
    expect(text).not.toContain('network_tools_chain_earliest_expiry_seconds{filepath="/c.pem"}');
    const check = Bun.spawn(["promtool", "check", "metrics"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    check.stdin.write(text);
    await check.stdin.end();
    const [code, out, err] = await Promise.all([
      check.exited,
      new Response(check.stdout).text(),
      new Response(check.stderr).text(),
    ]);
    // promtool lints naming too (a counter should end in _total): enix's name is kept on purpose.
    expect(
      `${out}${err}`.replace(/x509_read_errors counter metrics should have "_total" suffix\n?/, "").trim(),
    ).toBe("");
    // Exit 3 is promtool's "lint problems" (that suffix); a text it cannot parse exits 1.
    expect([0, 3]).toContain(code);
  });
});
