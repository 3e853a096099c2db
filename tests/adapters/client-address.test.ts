/**
 * The real ClientAddressSource: socket peer, IPv4-mapped unmapping, trusted-proxy walks.
 */
import { describe, expect, test } from "bun:test";
import {
  type ForwardingHeader,
  ProxyAwareClientAddressSource,
} from "../../src/adapters/system/client-address.ts";
import { parseCidrList } from "../../src/adapters/system/trusted-proxies.ts";

function observe(
  peer: string | null,
  trusted: string,
  headers: Record<string, string> = {},
  header: ForwardingHeader = "x-forwarded-for",
): string {
  const source = new ProxyAwareClientAddressSource(() => peer, parseCidrList(trusted), header);
  const result = source.clientAddress(new Request("http://localhost/v1/public-ip", { headers }));
  return result.ok ? result.address.toString() : `unavailable: ${result.reason}`;
}

describe("socket peer", () => {
  test("the peer is the client when nobody is trusted", () => {
    expect(observe("198.51.100.4", "")).toBe("198.51.100.4");
    expect(observe("2001:db8::1", "")).toBe("2001:db8::1");
  });

  test("an IPv4-mapped peer from a dual-stack socket is reported as IPv4", () => {
    expect(observe("::ffff:192.0.2.1", "")).toBe("192.0.2.1");
  });

  test("no socket address is unavailable", () => {
    expect(observe(null, "")).toStartWith("unavailable");
  });

  test("a client-sent X-Forwarded-For from an untrusted peer is ignored", () => {
    expect(observe("198.51.100.4", "", { "x-forwarded-for": "127.0.0.1" })).toBe("198.51.100.4");
    expect(observe("198.51.100.4", "10.0.0.0/8", { "x-forwarded-for": "127.0.0.1" })).toBe("198.51.100.4");
    expect(observe("198.51.100.4", "10.0.0.0/8", { forwarded: "for=127.0.0.1" }, "forwarded")).toBe(
      "198.51.100.4",
    );
  });
});

describe("trusted proxies, X-Forwarded-For", () => {
  const trusted = "10.0.0.0/8, 2001:db8:ffff::/48";

  test("one trusted proxy: the rightmost entry is the client", () => {
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
  });

  test("client, attacker-inserted, proxy behind two trusted proxies yields the right hop", () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the first proxy appended the client's real
    // address, the second proxy appended the first proxy's address.
    const chain = "6.6.6.6, 203.0.113.50, 10.1.1.1";
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": chain })).toBe("203.0.113.50");
  });

  test("repeated header lines are one list", () => {
    const headers = new Headers();
    headers.append("x-forwarded-for", "6.6.6.6");
    headers.append("x-forwarded-for", "203.0.113.50, 10.1.1.1");
    const source = new ProxyAwareClientAddressSource(() => "10.0.0.2", parseCidrList(trusted));
    const result = source.clientAddress(new Request("http://localhost/", { headers }));
    expect(result.ok && result.address.toString()).toBe("203.0.113.50");
  });

  test("ports, brackets and mapped addresses in entries are understood", () => {
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "203.0.113.9:5555" })).toBe("203.0.113.9");
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "[2001:db8::7]:443" })).toBe("2001:db8::7");
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "::ffff:203.0.113.9" })).toBe("203.0.113.9");
  });

  test("every hop trusted: the leftmost is the client", () => {
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "10.9.9.9, 10.1.1.1" })).toBe("10.9.9.9");
  });

  test.each([
    ["missing header", {}],
    ["empty header", { "x-forwarded-for": "" }],
    ["garbage where the walk stops", { "x-forwarded-for": "203.0.113.5, not-an-ip" }],
    ["empty element", { "x-forwarded-for": "203.0.113.5, , 10.1.1.1" }],
    ["leading-zero octets", { "x-forwarded-for": "010.0.0.1" }],
    ["a hostname", { "x-forwarded-for": "example.com" }],
  ])("%s behind a trusted proxy is unavailable, never a guess", (_name, headers) => {
    expect(observe("10.0.0.2", trusted, headers)).toStartWith("unavailable");
  });

  test("garbage left of the client is never reached", () => {
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": "junk, 203.0.113.5" })).toBe("203.0.113.5");
  });

  test("an overlong chain is refused", () => {
    const chain = Array.from({ length: 65 }, () => "10.1.1.1").join(", ");
    expect(observe("10.0.0.2", trusted, { "x-forwarded-for": chain })).toStartWith("unavailable");
  });

  test("the header the proxies do not maintain is ignored", () => {
    expect(observe("10.0.0.2", trusted, { forwarded: "for=203.0.113.1" })).toStartWith("unavailable");
  });
});

describe("trusted proxies, RFC 7239 Forwarded", () => {
  const trusted = "10.0.0.0/8";
  const forwarded = (value: string) => observe("10.0.0.2", trusted, { forwarded: value }, "forwarded");

  test("for= with quoted IPv6, brackets and port", () => {
    expect(forwarded('for="[2001:db8:cafe::17]:4711"')).toBe("2001:db8:cafe::17");
  });

  test("several elements, other parameters, case-insensitive names", () => {
    expect(forwarded("for=192.0.2.43;proto=https, For=198.51.100.17;by=10.0.0.2")).toBe("198.51.100.17");
    expect(forwarded('for=6.6.6.6, for="192.0.2.60:8080";proto=http, for=10.3.3.3')).toBe("192.0.2.60");
  });

  test("obfuscated identifiers and unknown where the walk stops are unavailable", () => {
    expect(forwarded("for=_hidden")).toStartWith("unavailable");
    expect(forwarded("for=unknown")).toStartWith("unavailable");
    expect(forwarded("proto=https")).toStartWith("unavailable");
  });

  test("quoted commas do not split elements", () => {
    expect(forwarded('for=192.0.2.1;ext="a,b", for=10.1.1.1')).toBe("192.0.2.1");
  });
});
