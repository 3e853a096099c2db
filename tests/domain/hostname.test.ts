import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  addressFormProblem,
  asciiLowercase,
  dnsNameMatches,
  matchHostname,
  validateHostname,
} from "../../src/domain/certificates/hostname.ts";
import { validateIdentity } from "../../src/domain/certificates/identity.ts";

const label63 = "a".repeat(63);
/** 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters. */
const name253 = `${label63}.${label63}.${label63}.${"b".repeat(61)}`;

describe("validateHostname: accepted, normalized", () => {
  test.each([
    ["example.com", "example.com"],
    ["  Example.COM  ", "example.com"],
    ["www.example.com.", "www.example.com"],
    ["\tlocalhost\n", "localhost"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["a-b.c-d.example", "a-b.c-d.example"],
    ["1a.example", "1a.example"],
    ["123.example.com", "123.example.com"],
    ["example.123", "example.123"],
    [label63, label63],
    [name253, name253],
    [`${name253}.`, name253],
  ])("%j -> %j", (raw, expected) => {
    expect(validateHostname(raw)).toEqual({ expected, issues: [] });
  });

  test.each([undefined, "", "   ", "\t\r\n", "\u00A0"])("%j means no identity check", (raw) => {
    expect(validateHostname(raw)).toEqual({ expected: null, issues: [] });
  });
});

describe("validateHostname: rejected with a message saying why", () => {
  test.each([
    ["https://example.com", "not a URL"],
    ["http://example.com:8443/path", "not a URL"],
    ["example.com/path", "not a URL"],
    ["example.com?x=1", "not a URL"],
    ["user@example.com", "not a URL"],
    ["example.com:443", "port"],
    ["example.com:", "port"],
    ["192.0.2.1", "IP address"],
    ["192.0.2.1.", "IP address"],
    ["999.1.1.1", "IP address"],
    ["2001:db8::1", "IP address"],
    ["::1", "IP address"],
    ["[2001:db8::1]", "IP address"],
    ["[2001:db8::1]:443", "IP address"],
    ["fe80::1%eth0", "IP address"],
    ["*.example.com", "wildcard"],
    ["*", "wildcard"],
    ["f*.example.com", "wildcard"],
    ["bücher.example", "ASCII"],
    ["例え.jp", "ASCII"],
    ["exa\u00A0mple.com", "ASCII"],
    ["\u212Aexample.com", "ASCII"],
    ["exa mple.com", "only letters, digits, hyphens and dots"],
    ["under_score.example.com", "only letters, digits, hyphens and dots"],
    ["a,b.com", "only letters, digits, hyphens and dots"],
    ["-example.com", "label 1 of hostname starts or ends with a hyphen"],
    ["www.example-.com", "label 2 of hostname starts or ends with a hyphen"],
    [".example.com", "empty label"],
    ["example..com", "empty label"],
    [".", "empty label"],
    ["example.com..", "empty label"],
    [`${"a".repeat(64)}.com`, "label 1 of hostname is longer than 63 characters"],
    [`${name253}x`, "longer than 253 characters"],
    [`${name253}x.`, "longer than 253 characters"],
    ["a".repeat(256), "longer than 255 characters"],
  ])("%j: %s", (raw, why) => {
    const result = validateHostname(raw);
    expect(result.expected).toBeNull();
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]!.path).toEqual(["hostname"]);
    expect(result.issues[0]!.message).toContain(why);
    expect(result.issues[0]!.location).toBeUndefined();
  });
});

describe("addresses in forms no hostname field takes (CONTRACT §7.3 'Hostnames in messages')", () => {
  const forms: [string, string, string][] = [
    ["[2001:db8::1]", "give the address without brackets (2001:db8::1)", "brackets"],
    ["[2001:db8::1]:443", "give the address without brackets and without a port (2001:db8::1)", "brackets"],
    ["[192.0.2.1]", "give the address without brackets (192.0.2.1)", "brackets"],
    ["fe80::1%eth0", "zone indexes are not accepted; give the address alone (fe80::1)", "zone"],
    ["FE80::1%25", "zone indexes are not accepted; give the address alone (fe80::1)", "zone"],
    ["2001:db8::1/128", "a hostname has no prefix length; give the address alone (2001:db8::1)", "prefix"],
    ["192.0.2.1/32", "a hostname has no prefix length; give the address alone (192.0.2.1)", "prefix"],
  ];

  test.each(forms)("%j, where addresses are accepted (the chain): names the accepted form", (raw, words) => {
    const result = validateHostname(raw, { addressesAccepted: true });
    expect(result.expected).toBeNull();
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]!.path).toEqual(["hostname"]);
    expect(result.issues[0]!.message).toEndWith(words);
    expect(result.issues[0]!.message).not.toContain("not an IP address");
    expect(result.issues[0]!.message).not.toContain("URL");
    // The chain's identity parser says the same.
    expect(validateIdentity(raw).issues.map((issue) => issue.message)).toEqual([result.issues[0]!.message]);
  });

  test.each(forms)("%j, where only DNS names are accepted (the bundle): not an IP address", (raw) => {
    expect(validateHostname(raw).issues.map((issue) => issue.message)).toEqual([
      "hostname must be a DNS name, not an IP address",
    ]);
  });

  test.each(["[example.com]", "example.com/24", "eth0%fe80::1", "a/b", "[]", "10.0.0.1/1234"])(
    "%j is not an address in another form",
    (raw) => {
      expect(addressFormProblem(raw)).toBeNull();
    },
  );

  test("text that looks like an address but is none: neither a DNS name nor an address, with the reason", () => {
    for (const raw of ["1:2:3", "2001:db8::g", "[foo]"]) {
      const [issue] = validateIdentity(raw).issues;
      expect(issue!.message).toStartWith("hostname is neither a DNS name nor a valid IP address: ");
    }
  });

  test("property: any address in brackets, with a prefix length or (IPv6) a zone is named by its form", () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join("."));
    const v6 = fc
      .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
      .map((groups) => groups.map((g) => g.toString(16)).join(":"));
    fc.assert(
      fc.property(
        fc.oneof(v4, v6),
        fc.nat(128),
        fc.stringMatching(/^[a-z0-9]{1,8}$/),
        (address, bits, zone) => {
          const canonical = validateIdentity(address).expected;
          expect(canonical?.kind).toBe("ip");
          const text = canonical?.kind === "ip" ? canonical.text : "";
          expect(addressFormProblem(`[${address}]`)).toEndWith(`without brackets (${text})`);
          expect(addressFormProblem(`${address}/${bits}`)).toEndWith(
            `no prefix length; give the address alone (${text})`,
          );
          const zoned = addressFormProblem(`${address}%${zone}`);
          if (address.includes(":"))
            expect(zoned).toEndWith(`not accepted; give the address alone (${text})`);
          else expect(zoned).toBeNull();
        },
      ),
    );
  });
});

describe("dnsNameMatches (RFC 6125, leftmost whole-label wildcard only)", () => {
  test.each([
    ["example.com", "example.com", true],
    ["example.com", "EXAMPLE.com", true],
    ["example.com", "example.com.", true],
    ["example.com", "example.com..", false],
    ["www.example.com", "www.example.com", true],
    ["www.example.com", "example.com", false],
    ["example.com", "www.example.com", false],
    ["www.example.com", "*.example.com", true],
    ["www.example.com", "*.EXAMPLE.COM.", true],
    ["example.com", "*.example.com", false],
    ["a.b.example.com", "*.example.com", false],
    ["www.example.com", "f*.example.com", false],
    ["foo.example.com", "f*.example.com", false],
    ["foo.example.com", "*o.example.com", false],
    ["foo.example.com", "f*o.example.com", false],
    ["a.b.example.com", "*.*.example.com", false],
    ["www.example.com", "www.*.com", false],
    ["example.com", "*.com", false],
    ["com", "*.com", false],
    ["www.co.uk", "*.co.uk", true],
    ["www.example.com", "*", false],
    ["www.example.com", "*.", false],
    ["www.example.com", "*..com", false],
    ["www.example.com", "", false],
    ["www.example.com", ".", false],
    ["xn--bcher-kva.example", "*.example", false],
    ["kelvin.example.com", "\u212Aelvin.example.com", false],
  ])("%s against %j -> %p", (expected, pattern, matches) => {
    expect(dnsNameMatches(expected, pattern)).toBe(matches);
  });
});

describe("matchHostname", () => {
  test("only dns SANs count, the first match is returned as written", () => {
    const sans = [
      { type: "ip", value: "192.0.2.1" },
      { type: "email", value: "www.example.com" },
      { type: "uri", value: "www.example.com" },
      { type: "dns", value: "other.example" },
      { type: "dns", value: "*.Example.com" },
      { type: "dns", value: "www.example.com" },
    ];
    expect(matchHostname("www.example.com", sans)).toBe("*.Example.com");
    expect(matchHostname("example.com", sans)).toBeNull();
    expect(matchHostname("192.0.2.1", sans)).toBeNull();
  });

  test("no dns SANs: no match (no Common Name fallback)", () => {
    expect(matchHostname("example.com", [])).toBeNull();
    expect(matchHostname("example.com", [{ type: "directoryName", value: "CN=example.com" }])).toBeNull();
  });
});

test("asciiLowercase maps A-Z only", () => {
  expect(asciiLowercase("AbC-\u212A-\u0130-Z")).toBe("abc-\u212A-\u0130-z");
});
