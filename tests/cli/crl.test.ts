/**
 * `nettools crl` as a process (CONTRACT §10.2): lists from `openssl ca -gencrl`, PEM and DER, the
 * lookups and every entry read back as `openssl crl -text` prints them, the exit status (1 when
 * revoked, failed or stale), and a DER list of several megabytes read in bounded memory, measured.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeCa, openssl, opensslCrlText, type TestCa } from "../support/openssl-ca.ts";
import { CLI, runNettools, runProcess } from "./run.ts";

let ca: TestCa;
let crlPem = "";
let crlDer = "";
let revoked = "";
let good = "";

beforeAll(() => {
  ca = makeCa("CLI CRL CA");
  revoked = ca.issue("revoked.example", "1001");
  good = ca.issue("good.example", "1002");
  ca.revoke(revoked, "keyCompromise");
  ca.revoke(ca.issue("held.example", "1003"), "certificateHold");
  crlPem = ca.gencrl();
  crlDer = join(ca.dir, "crl.der");
  openssl(["crl", "-in", crlPem, "-outform", "DER", "-out", crlDer]);
}, 60_000);

describe("nettools crl", () => {
  test("--entries --json reads back as openssl crl -text prints it, from PEM and from DER", async () => {
    const oracle = opensslCrlText(crlPem);
    for (const file of [crlPem, crlDer]) {
      const ran = await runNettools(["crl", "--json", "--entries", file]);
      expect(ran.code).toBe(0);
      const body = JSON.parse(ran.stdout);
      expect({
        issuer: body.issuer,
        thisUpdate: body.thisUpdate,
        nextUpdate: body.nextUpdate,
        crlNumber: body.crlNumber,
        signatureAlgorithm: body.signatureAlgorithm,
        entries: body.entries,
        revoked: body.revokedCertificates.map((entry: Record<string, string>) => [
          entry.serialNumber,
          entry.revocationDate,
        ]),
      }).toEqual({
        issuer: oracle.issuer,
        thisUpdate: oracle.thisUpdate,
        nextUpdate: oracle.nextUpdate,
        crlNumber: oracle.crlNumber,
        signatureAlgorithm: oracle.signatureAlgorithm,
        entries: oracle.revoked.length,
        revoked: oracle.revoked.map((entry) => [entry.serialNumber, entry.revocationDate]),
      });
    }
    // The text table names reasons in openssl's words.
    const text = await runNettools(["crl", "--entries", crlPem]);
    for (const entry of oracle.revoked) expect(text.stdout).toContain(`${entry.serialNumber}`);
    expect(text.stdout).toContain("Key Compromise");
    expect(text.stdout).toContain("Certificate Hold");
  });

  test("a revoked certificate: exit 1; a valid one with the CA: exit 0, verified", async () => {
    const bad = await runNettools(["crl", "--issuer", ca.caPath, "-c", revoked, crlDer]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("serial 1001: REVOKED");
    expect(bad.stdout).toContain("Key Compromise");
    const fine = await runNettools(["crl", "--issuer", ca.caPath, "-c", good, crlPem]);
    expect({ code: fine.code, stderr: fine.stderr }).toEqual({ code: 0, stderr: "" });
    expect(fine.stdout).toContain("verified");
    expect(fine.stdout).toContain("serial 1002: not revoked");
  });

  test("a list signed by another key of the same name: failed, exit 1; a stale list: exit 1", async () => {
    const impostor = makeCa("CLI CRL CA");
    const failed = await runNettools(["crl", "--json", "--issuer", impostor.caPath, crlPem]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).signature).toBe("failed");
    const stale = await runNettools(["crl", "--json", "--at", "@4102444800", crlPem]);
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout)).toMatchObject({ stale: true, evaluatedAt: "2100-01-01T00:00:00Z" });
  }, 30_000);

  test("a file that is no CRL: one line, exit 2, no byte of it shown", async () => {
    const junk = join(ca.dir, "junk.der");
    writeFileSync(junk, Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x07, 0xde, 0xad));
    const ran = await runNettools(["crl", junk]);
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split("\n").length).toBe(1);
    expect(ran.stderr.toLowerCase()).not.toContain("dead");
  });

  test("a DER list of several megabytes goes through in bounded memory (peak RSS measured)", async () => {
    const big = makeCa("Big CRL CA");
    const count = 150_000;
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      const reason = i % 3 === 0 ? ",keyCompromise" : "";
      lines.push(
        `R\t271231000000Z\t261101000000Z${reason}\t${(0x100000 + i).toString(16).toUpperCase()}\tunknown\t/CN=x${i}`,
      );
    }
    writeFileSync(join(big.dir, "index.txt"), `${lines.join("\n")}\n`);
    const pem = big.gencrl();
    const der = join(big.dir, "big.der");
    openssl(["crl", "-in", pem, "-outform", "DER", "-out", der]);
    const size = statSync(der).size;
    expect(size).toBeGreaterThan(3_500_000);
    const small = await runProcess([process.execPath, CLI, "crl", "--issuer", ca.caPath, crlDer]);
    const large = await runProcess([process.execPath, CLI, "crl", "--json", "--issuer", big.caPath, der]);
    expect(large.code).toBe(0);
    expect(JSON.parse(large.stdout)).toMatchObject({ entries: count, signature: "verified" });
    // Memory grows with the file, by a small factor, not with its entries as objects.
    const growth = large.maxRssBytes - small.maxRssBytes;
    console.log(
      `crl ${size} bytes DER, ${count} entries: peak RSS ${large.maxRssBytes} (small list ${small.maxRssBytes}), ${large.wallMs.toFixed(0)} ms`,
    );
    expect(growth).toBeLessThan(10 * size);
    expect(large.maxRssBytes).toBeLessThan(256 * 1024 * 1024);
  }, 180_000);
});
