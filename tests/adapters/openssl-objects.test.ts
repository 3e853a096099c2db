/**
 * src/adapters/crypto/openssl-objects.ts is OpenSSL's object table; this checks it against the
 * installed openssl (`openssl list -objects`). On a mismatch, regenerate it:
 *   node_modules/.bin/bun tests/fixtures/generate-openssl-objects.ts
 */
import { describe, expect, test } from "bun:test";
import { opensslLongName, opensslShortName } from "../../src/adapters/crypto/openssl-names.ts";

describe("OpenSSL object names", () => {
  test("every object `openssl list -objects` prints has the same short and long name here", () => {
    const listing = Bun.spawnSync(["openssl", "list", "-objects"]).stdout.toString();
    const listed = new Map<string, { sn: string; ln: string }[]>();
    for (const line of listing.split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      const eq = line.indexOf(" = ");
      const sn = line.slice(0, eq);
      const rest = line.slice(eq + 3);
      const m = /^(?:(.*), )?([0-9][0-9.]*)$/.exec(rest);
      if (!m) continue;
      const oid = m[2]!;
      if (oid.endsWith(".")) continue; // openssl truncates long OIDs in this listing
      listed.set(oid, [...(listed.get(oid) ?? []), { sn, ln: m[1] ?? sn }]);
    }
    // An OID listed twice (1.3: ORG and identified-organization) resolves to one of them; the
    // table keeps the lower NID, which is what OpenSSL resolves too (`asn1parse -genstr OID:1.3`).
    const wrong: string[] = [];
    for (const [oid, names] of listed) {
      if (!names.some(({ sn, ln }) => opensslShortName(oid) === sn && opensslLongName(oid) === ln)) {
        wrong.push(
          `${oid}: openssl ${JSON.stringify(names)}, table ${opensslShortName(oid)} / ${opensslLongName(oid)}`,
        );
      }
    }
    expect(wrong.join("\n")).toBe("");
    expect(listed.size).toBeGreaterThan(1000);
  });

  test("names the decoder relies on", () => {
    expect(opensslShortName("2.5.4.3")).toBe("CN");
    expect(opensslShortName("1.2.840.113549.1.9.1")).toBe("emailAddress");
    expect(opensslShortName("0.9.2342.19200300.100.1.25")).toBe("DC");
    expect(opensslShortName("0.9.2342.19200300.100.1.1")).toBe("UID");
    expect(opensslShortName("2.5.4.5")).toBe("serialNumber");
    expect(opensslShortName("1.3.6.1.4.1.32473.1.1")).toBeUndefined();
    expect(opensslLongName("1.2.840.113549.1.1.11")).toBe("sha256WithRSAEncryption");
    expect(opensslLongName("1.2.840.10045.4.3.3")).toBe("ecdsa-with-SHA384");
    expect(opensslLongName("1.2.840.113549.1.1.10")).toBe("rsassaPss");
    expect(opensslLongName("1.3.101.112")).toBe("ED25519");
    expect(opensslLongName("1.3.101.113")).toBe("ED448");
    expect(opensslLongName("2.16.840.1.101.3.4.3.2")).toBe("dsa_with_SHA256");
    expect(opensslLongName("1.2.840.113549.1.1.4")).toBe("md5WithRSAEncryption");
    expect(opensslLongName("1.2.3.4.5")).toBe("1.2.3.4.5");
    expect(opensslLongName("1.3")).toBe("org");
  });
});
