/**
 * Address and prefix parsing and canonical text (CONTRACT §2, RFC 4291 §2.2, RFC 5952).
 * Every valid row also checks parse → format → parse round-trips to the same value.
 */
import { describe, expect, test } from "bun:test";
import { IpAddr, parseAddr, unmap } from "../../src/domain/ip/addr.ts";
import { IpPrefix, parsePrefix, prefixContains } from "../../src/domain/ip/prefix.ts";

function mustParse(text: string): IpAddr {
  const r = parseAddr(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

function mustParsePrefix(text: string): IpPrefix {
  const r = parsePrefix(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

function failure(text: string): string {
  const r = parseAddr(text);
  if (r.ok) throw new Error(`${JSON.stringify(text)} parsed as ${r.value}`);
  return r.message;
}

function prefixFailure(text: string): string {
  const r = parsePrefix(text);
  if (r.ok) throw new Error(`${JSON.stringify(text)} parsed as ${r.value}`);
  return r.message;
}

function expectRoundTrip(addr: IpAddr, canonical: string): void {
  expect(addr.toString()).toBe(canonical);
  const again = mustParse(canonical);
  expect(again.equals(addr)).toBe(true);
  expect(again.toString()).toBe(canonical);
}

describe("IPv4 addresses", () => {
  // [input, canonical text, value]
  const valid: [string, string, bigint][] = [
    ["0.0.0.0", "0.0.0.0", 0n],
    ["255.255.255.255", "255.255.255.255", 0xffffffffn],
    ["192.0.2.1", "192.0.2.1", 0xc0000201n],
    ["10.0.0.1", "10.0.0.1", 0x0a000001n],
    ["1.2.3.4", "1.2.3.4", 0x01020304n],
    ["100.64.0.0", "100.64.0.0", 0x64400000n],
    ["0.0.0.10", "0.0.0.10", 10n],
    [" 10.0.0.1", "10.0.0.1", 0x0a000001n],
    ["10.0.0.1 ", "10.0.0.1", 0x0a000001n],
    ["\t10.0.0.1\r\n", "10.0.0.1", 0x0a000001n],
    ["\n\r \t192.0.2.1\t \r\n", "192.0.2.1", 0xc0000201n],
  ];
  test.each(valid)("%j parses to %s", (input, canonical, value) => {
    const addr = mustParse(input);
    expect(addr.family).toBe(4);
    expect(addr.toBigInt()).toBe(value);
    expectRoundTrip(addr, canonical);
  });

  const q = (s: string) => JSON.stringify(s);
  // [input, exact message]
  const invalid: [string, string][] = [
    ["10.0.0.256", '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255'],
    ["999.1.1.1", '"999.1.1.1" is not a valid IPv4 address: octet 999 is above 255'],
    ["1.2.3.1000", '"1.2.3.1000" is not a valid IPv4 address: octet 1000 is above 255'],
    [
      "010.0.0.1",
      '"010.0.0.1" is not a valid IPv4 address: octet "010" has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)',
    ],
    [
      "10.0.0.01",
      '"10.0.0.01" is not a valid IPv4 address: octet "01" has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)',
    ],
    [
      "00.0.0.0",
      '"00.0.0.0" is not a valid IPv4 address: octet "00" has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)',
    ],
    [
      "10.1",
      '"10.1" is not a valid IPv4 address: it has 2 octets, expected 4 (shorthand forms such as "10.1" are not accepted)',
    ],
    [
      "10.1.2",
      '"10.1.2" is not a valid IPv4 address: it has 3 octets, expected 4 (shorthand forms such as "10.1" are not accepted)',
    ],
    [
      "167772161",
      '"167772161" is not a valid IPv4 address: it has 1 octet, expected 4 (shorthand forms such as "10.1" are not accepted)',
    ],
    ["1.2.3.4.5", '"1.2.3.4.5" is not a valid IPv4 address: it has 5 octets, expected 4'],
    [
      "0x0a.0.0.1",
      '"0x0a.0.0.1" is not a valid IPv4 address: "0x0a" is not a decimal octet (hexadecimal is not accepted)',
    ],
    [
      "10.0.0.0xff",
      '"10.0.0.0xff" is not a valid IPv4 address: "0xff" is not a decimal octet (hexadecimal is not accepted)',
    ],
    [
      "0x0a000001",
      '"0x0a000001" is not a valid IPv4 address: "0x0a000001" is not a decimal octet (hexadecimal is not accepted)',
    ],
    ["1.2.3.-4", '"1.2.3.-4" is not a valid IPv4 address: unexpected character "-"'],
    ["+1.2.3.4", '"+1.2.3.4" is not a valid IPv4 address: unexpected character "+"'],
    ["1..2.3", '"1..2.3" is not a valid IPv4 address: it has an empty octet (two dots in a row)'],
    [".1.2.3", '".1.2.3" is not a valid IPv4 address: it starts with a dot'],
    ["1.2.3.", '"1.2.3." is not a valid IPv4 address: it ends with a dot'],
    ["1.2.3.4.", '"1.2.3.4." is not a valid IPv4 address: it ends with a dot'],
    ["１.２.３.４", '"１.２.３.４" is not a valid IPv4 address: unexpected character U+FF11'],
    // only ASCII space, tab, CR and LF are trimmed (CONTRACT §2)
    ["\u00a010.0.0.1", `${q("\u00a010.0.0.1")} is not a valid IPv4 address: unexpected character U+00A0`],
    ["10.0.0.1\u000b", `${q("10.0.0.1\u000b")} is not a valid IPv4 address: unexpected character U+000B`],
    ["10.0.0.1\f", `${q("10.0.0.1\f")} is not a valid IPv4 address: unexpected character U+000C`],
    [
      "10.0.0 .1",
      '"10.0.0 .1" is not a valid IPv4 address: it contains whitespace; only surrounding whitespace is ignored',
    ],
    [
      "10.0.0.1%eth0",
      '"10.0.0.1%eth0" is not a valid IPv4 address: zone indexes such as "%eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
    ],
    [
      "10.0.0.0/8",
      '"10.0.0.0/8" is not a valid IPv4 address: it has a prefix length ("/8"); only a bare address is accepted here',
    ],
  ];
  test.each(invalid)("%j is rejected", (input, message) => {
    expect(failure(input)).toBe(message);
  });
});

describe("IPv6 addresses", () => {
  // [input, canonical text]; RFC 4291 §2.2 forms and RFC 5952 §4 choices
  const valid: [string, string][] = [
    // RFC 4291 §2.2, form 1
    ["ABCD:EF01:2345:6789:ABCD:EF01:2345:6789", "abcd:ef01:2345:6789:abcd:ef01:2345:6789"],
    ["2001:DB8:0:0:8:800:200C:417A", "2001:db8::8:800:200c:417a"],
    // form 2: "::"
    ["2001:DB8::8:800:200C:417A", "2001:db8::8:800:200c:417a"],
    ["FF01:0:0:0:0:0:0:101", "ff01::101"],
    ["FF01::101", "ff01::101"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["::1", "::1"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["::", "::"],
    // form 3: dotted IPv4 tail; only ::ffff:0:0/96 prints in mixed notation (CONTRACT §2)
    ["0:0:0:0:0:0:13.1.68.3", "::d01:4403"],
    ["::13.1.68.3", "::d01:4403"],
    ["0:0:0:0:0:FFFF:129.144.52.38", "::ffff:129.144.52.38"],
    ["::FFFF:129.144.52.38", "::ffff:129.144.52.38"],
    ["::ffff:0:0", "::ffff:0.0.0.0"],
    ["::ffff:ffff:ffff", "::ffff:255.255.255.255"],
    ["::ffff:c000:201", "::ffff:192.0.2.1"],
    ["::fffe:1.2.3.4", "::fffe:102:304"],
    ["::1:ffff:1.2.3.4", "::1:ffff:102:304"],
    ["64:ff9b::192.0.2.33", "64:ff9b::c000:221"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
    ["::0.0.0.0", "::"],
    // RFC 5952 §2 (all the same address) and §4
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8::1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8::0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8::1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:0:0:1::1", "2001:db8::1:0:0:1"],
    ["2001:db8:0000:0:1::1", "2001:db8::1:0:0:1"],
    ["2001:DB8:0:0:1::1", "2001:db8::1:0:0:1"],
    ["2001:0db8::0001", "2001:db8::1"], // §4.1 leading zeros
    ["2001:db8:0:0:0:0:2:1", "2001:db8::2:1"], // §4.2.1 longest possible
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"], // §4.2.2 one zero group stays
    ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1"], // §4.2.3 longest run
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"], // §4.2.3 first on a tie
    ["2001:DB8::1", "2001:db8::1"], // §4.3 lowercase
    // edges
    ["1:0:0:0:0:0:0:0", "1::"],
    ["1::", "1::"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
    ["0:1:2:3:4:5:6:7", "0:1:2:3:4:5:6:7"],
    ["1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0"],
    ["0:0:1:0:0:1:0:0", "::1:0:0:1:0:0"],
    ["1:0:0:2:0:0:0:0", "1:0:0:2::"],
    ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["FFFF:ffff:FfFf:fFfF:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["fe80::1", "fe80::1"],
    ["0000:0000:0000:0000:0000:0000:0000:0001", "::1"],
    [" \t2001:db8::1\r\n", "2001:db8::1"],
  ];
  test.each(valid)("%j prints as %s", (input, canonical) => {
    const addr = mustParse(input);
    expect(addr.family).toBe(6);
    expectRoundTrip(addr, canonical);
  });

  test("values are exact", () => {
    expect(mustParse("::").toBigInt()).toBe(0n);
    expect(mustParse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").toBigInt()).toBe((1n << 128n) - 1n);
    expect(mustParse("2001:db8::8:800:200c:417a").toBigInt()).toBe(0x20010db8000000000008_0800_200c_417an);
    expect(mustParse("::ffff:1.2.3.4").toBigInt()).toBe(0xffff_0102_0304n);
  });

  const invalid: [string, string][] = [
    [
      "fe80::1%eth0",
      '"fe80::1%eth0" is not a valid IPv6 address: zone indexes such as "%eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
    ],
    [
      "fe80::1%25eth0",
      '"fe80::1%25eth0" is not a valid IPv6 address: zone indexes such as "%25eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
    ],
    [
      "[::1]",
      '"[::1]" is not a valid IPv6 address: brackets are not accepted (they belong around an IPv6 address in a URL, not in an address entry)',
    ],
    [
      "[2001:db8::1]:443",
      '"[2001:db8::1]:443" is not a valid IPv6 address: brackets are not accepted (they belong around an IPv6 address in a URL, not in an address entry)',
    ],
    ["1:::2", '"1:::2" is not a valid IPv6 address: it contains ":::"'],
    [":::", '":::" is not a valid IPv6 address: it contains ":::"'],
    ["1::2::3", '"1::2::3" is not a valid IPv6 address: "::" may appear only once'],
    ["::1::", '"::1::" is not a valid IPv6 address: "::" may appear only once'],
    [":1:2:3:4:5:6:7", '":1:2:3:4:5:6:7" is not a valid IPv6 address: it starts with a single ":"'],
    [":1::", '":1::" is not a valid IPv6 address: it starts with a single ":"'],
    ["1:2:3:4:5:6:7:", '"1:2:3:4:5:6:7:" is not a valid IPv6 address: it ends with a single ":"'],
    [":", '":" is not a valid IPv6 address: it starts with a single ":"'],
    [
      "1:2:3:4:5:6:7",
      '"1:2:3:4:5:6:7" is not a valid IPv6 address: it has 7 groups, expected 8 (an embedded IPv4 address counts as 2; "::" may stand for a run of zero groups)',
    ],
    [
      "1:2:3:4:5:6:7:8:9",
      '"1:2:3:4:5:6:7:8:9" is not a valid IPv6 address: it has 9 groups, expected 8 (an embedded IPv4 address counts as 2; "::" may stand for a run of zero groups)',
    ],
    [
      "1:2:3:4::5:6:7:8",
      '"1:2:3:4::5:6:7:8" is not a valid IPv6 address: it has 8 groups besides "::", but "::" must stand for at least one zero group',
    ],
    [
      "1:2:3:4:5:6:7:8::",
      '"1:2:3:4:5:6:7:8::" is not a valid IPv6 address: it has 8 groups besides "::", but "::" must stand for at least one zero group',
    ],
    [
      "1::2:3:4:5:6:1.2.3.4",
      '"1::2:3:4:5:6:1.2.3.4" is not a valid IPv6 address: it has 8 groups besides "::", but "::" must stand for at least one zero group',
    ],
    [
      "1:2:3:4:5:6:7:1.2.3.4",
      '"1:2:3:4:5:6:7:1.2.3.4" is not a valid IPv6 address: it has 9 groups, expected 8 (an embedded IPv4 address counts as 2; "::" may stand for a run of zero groups)',
    ],
    [
      "1:2:3:4:5:1.2.3.4",
      '"1:2:3:4:5:1.2.3.4" is not a valid IPv6 address: it has 7 groups, expected 8 (an embedded IPv4 address counts as 2; "::" may stand for a run of zero groups)',
    ],
    ["12345::1", '"12345::1" is not a valid IPv6 address: group "12345" has more than 4 hexadecimal digits'],
    ["::00001", '"::00001" is not a valid IPv6 address: group "00001" has more than 4 hexadecimal digits'],
    ["g::1", '"g::1" is not a valid IPv6 address: "g" is not a hexadecimal digit'],
    ["2001:db8::x", '"2001:db8::x" is not a valid IPv6 address: "x" is not a hexadecimal digit'],
    ["0x1::1", '"0x1::1" is not a valid IPv6 address: "x" is not a hexadecimal digit'],
    ["2001:db8::-1", '"2001:db8::-1" is not a valid IPv6 address: unexpected character "-"'],
    [
      "::1.2.3",
      '"::1.2.3" is not a valid IPv6 address: the embedded IPv4 address "1.2.3" is invalid: it has 3 octets, expected 4 (shorthand forms such as "10.1" are not accepted)',
    ],
    [
      "::ffff:1.2.3.256",
      '"::ffff:1.2.3.256" is not a valid IPv6 address: the embedded IPv4 address "1.2.3.256" is invalid: octet 256 is above 255',
    ],
    [
      "::ffff:01.2.3.4",
      '"::ffff:01.2.3.4" is not a valid IPv6 address: the embedded IPv4 address "01.2.3.4" is invalid: octet "01" has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)',
    ],
    [
      "::1.2.3.4:1",
      '"::1.2.3.4:1" is not a valid IPv6 address: an embedded IPv4 address may only stand at the end',
    ],
    [
      "1.2.3.4::",
      '"1.2.3.4::" is not a valid IPv6 address: an embedded IPv4 address may only stand at the end',
    ],
    [
      ":: 1",
      '":: 1" is not a valid IPv6 address: it contains whitespace; only surrounding whitespace is ignored',
    ],
    [
      "2001:db8::/32",
      '"2001:db8::/32" is not a valid IPv6 address: it has a prefix length ("/32"); only a bare address is accepted here',
    ],
  ];
  test.each(invalid)("%j is rejected", (input, message) => {
    expect(failure(input)).toBe(message);
  });
});

describe("entries of neither family", () => {
  const invalid: [string, string][] = [
    ["", '"" is not a valid IP address: it is blank'],
    [" \t\r\n", '"" is not a valid IP address: it is blank'],
    [
      "abc",
      '"abc" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
    ],
    [
      "localhost",
      '"localhost" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
    ],
    [
      "\u0000",
      '"\\u0000" is not a valid IP address: expected an IPv4 address such as 192.0.2.1 or an IPv6 address such as 2001:db8::1',
    ],
  ];
  test.each(invalid)("%j is rejected", (input, message) => {
    expect(failure(input)).toBe(message);
  });
});

describe("prefixes", () => {
  // [input, canonical, first, last]
  const valid: [string, string, string, string][] = [
    ["10.0.0.0/8", "10.0.0.0/8", "10.0.0.0", "10.255.255.255"],
    ["10.1.2.3/8", "10.0.0.0/8", "10.0.0.0", "10.255.255.255"], // host bits cleared silently
    ["10.0.0.1", "10.0.0.1/32", "10.0.0.1", "10.0.0.1"], // a bare address is a /32
    ["0.0.0.0/0", "0.0.0.0/0", "0.0.0.0", "255.255.255.255"],
    ["255.255.255.255/0", "0.0.0.0/0", "0.0.0.0", "255.255.255.255"],
    ["255.255.255.255/32", "255.255.255.255/32", "255.255.255.255", "255.255.255.255"],
    ["192.0.2.77/27", "192.0.2.64/27", "192.0.2.64", "192.0.2.95"],
    ["192.0.2.77/31", "192.0.2.76/31", "192.0.2.76", "192.0.2.77"],
    ["172.16.5.4/12", "172.16.0.0/12", "172.16.0.0", "172.31.255.255"],
    ["::/0", "::/0", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/0", "::/0", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["::1", "::1/128", "::1", "::1"], // a bare address is a /128
    ["2001:DB8::1/32", "2001:db8::/32", "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["2001:db8:1:2:3:4:5:6/64", "2001:db8:1:2::/64", "2001:db8:1:2::", "2001:db8:1:2:ffff:ffff:ffff:ffff"],
    ["2001:db8::1/127", "2001:db8::/127", "2001:db8::", "2001:db8::1"],
    ["2001:db8::8000:0/97", "2001:db8::8000:0/97", "2001:db8::8000:0", "2001:db8::ffff:ffff"],
    ["::ffff:10.1.2.3/104", "::ffff:10.0.0.0/104", "::ffff:10.0.0.0", "::ffff:10.255.255.255"],
    ["::ffff:1.2.3.4/96", "::ffff:0.0.0.0/96", "::ffff:0.0.0.0", "::ffff:255.255.255.255"],
    ["::ffff:1.2.3.4/95", "::fffe:0:0/95", "::fffe:0:0", "::ffff:255.255.255.255"],
    ["8000::/1", "8000::/1", "8000::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    [" 10.0.0.0/24\t", "10.0.0.0/24", "10.0.0.0", "10.0.0.255"],
  ];
  test.each(valid)("%j is %s (%s – %s)", (input, canonical, first, last) => {
    const p = mustParsePrefix(input);
    expect(p.toString()).toBe(canonical);
    expect(p.first.toString()).toBe(first);
    expect(p.last.toString()).toBe(last);
    const again = mustParsePrefix(canonical);
    expect(again.toString()).toBe(canonical);
    expect(again.first.equals(p.first)).toBe(true);
    expect(again.bits).toBe(p.bits);
  });

  const invalid: [string, string][] = [
    ["10.0.0.0/33", '"10.0.0.0/33" is not a valid IPv4 CIDR: prefix length 33 is above 32, the IPv4 maximum'],
    ["::/129", '"::/129" is not a valid IPv6 CIDR: prefix length 129 is above 128, the IPv6 maximum'],
    ["::/1000", '"::/1000" is not a valid IPv6 CIDR: prefix length 1000 is above 128, the IPv6 maximum'],
    ["10.0.0.0/", '"10.0.0.0/" is not a valid IPv4 CIDR: the prefix length after "/" is missing'],
    ["10.0.0.0/08", '"10.0.0.0/08" is not a valid IPv4 CIDR: prefix length "08" has a leading zero'],
    ["::/00", '"::/00" is not a valid IPv6 CIDR: prefix length "00" has a leading zero'],
    ["10.0.0.0/+8", '"10.0.0.0/+8" is not a valid IPv4 CIDR: prefix length "+8" is not a decimal number'],
    ["10.0.0.0/-1", '"10.0.0.0/-1" is not a valid IPv4 CIDR: prefix length "-1" is not a decimal number'],
    [
      "10.0.0.0/255.0.0.0",
      '"10.0.0.0/255.0.0.0" is not a valid IPv4 CIDR: "255.0.0.0" is netmask notation; write the prefix length instead: 10.0.0.0/8',
    ],
    ["10.0.0.0/8/9", '"10.0.0.0/8/9" is not a valid IPv4 CIDR: it has more than one "/"'],
    ["/8", '"/8" is not a valid IP CIDR: the address before "/" is missing'],
    [
      "10.0.0.0/ 8",
      '"10.0.0.0/ 8" is not a valid IPv4 CIDR: it contains whitespace; only surrounding whitespace is ignored',
    ],
    [
      "10.0.0.0 /8",
      '"10.0.0.0 /8" is not a valid IPv4 CIDR: it contains whitespace; only surrounding whitespace is ignored',
    ],
    ["10.0.0.256/8", '"10.0.0.256/8" is not a valid IPv4 CIDR: octet 256 is above 255'],
    [
      "010.0.0.0/8",
      '"010.0.0.0/8" is not a valid IPv4 CIDR: octet "010" has a leading zero, which is not accepted because it is ambiguous (some parsers read it as octal)',
    ],
    [
      "fe80::%eth0/64",
      '"fe80::%eth0/64" is not a valid IPv6 CIDR: zone indexes such as "%eth0" are not accepted: a zone names a link on one host and has no meaning in address arithmetic',
    ],
    [
      "[2001:db8::]/32",
      '"[2001:db8::]/32" is not a valid IPv6 CIDR: brackets are not accepted (they belong around an IPv6 address in a URL, not in an address entry)',
    ],
    ["10.0.0.256", '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255'],
    ["", '"" is not a valid IP address: it is blank'],
  ];
  test.each(invalid)("%j is rejected", (input, message) => {
    expect(prefixFailure(input)).toBe(message);
  });

  test("contains: same family and inside the block; IPv4-mapped addresses are not unmapped", () => {
    const net = mustParsePrefix("10.0.0.0/8");
    expect(prefixContains(net, mustParse("10.0.0.0"))).toBe(true);
    expect(prefixContains(net, mustParse("10.255.255.255"))).toBe(true);
    expect(prefixContains(net, mustParse("11.0.0.0"))).toBe(false);
    expect(prefixContains(net, mustParse("9.255.255.255"))).toBe(false);
    expect(prefixContains(net, mustParse("::ffff:10.0.0.1"))).toBe(false);
    expect(prefixContains(net, unmap(mustParse("::ffff:10.0.0.1")))).toBe(true);
    expect(prefixContains(mustParsePrefix("::/0"), mustParse("::ffff:10.0.0.1"))).toBe(true);
    expect(prefixContains(mustParsePrefix("::/0"), mustParse("10.0.0.1"))).toBe(false);
    expect(prefixContains(mustParsePrefix("0.0.0.0/0"), mustParse("255.255.255.255"))).toBe(true);
    const v6 = mustParsePrefix("2001:db8::/127");
    expect(v6.contains(mustParse("2001:db8::1"))).toBe(true);
    expect(v6.contains(mustParse("2001:db8::2"))).toBe(false);
    expect(mustParsePrefix("fe80::1/128").contains(mustParse("fe80::1"))).toBe(true);
  });

  test("address counts are exact", () => {
    expect(mustParsePrefix("0.0.0.0/0").addressCount()).toBe(4294967296n);
    expect(mustParsePrefix("10.0.0.0/31").addressCount()).toBe(2n);
    expect(mustParsePrefix("::/0").addressCount()).toBe(340282366920938463463374607431768211456n);
    expect(mustParsePrefix("::1").addressCount()).toBe(1n);
  });

  test("IpPrefix.from normalizes and checks the length", () => {
    expect(IpPrefix.from(mustParse("192.0.2.200"), 25).toString()).toBe("192.0.2.128/25");
    expect(() => IpPrefix.from(mustParse("192.0.2.200"), 33)).toThrow(RangeError);
    expect(() => IpPrefix.from(mustParse("::"), -1)).toThrow(RangeError);
    expect(() => IpPrefix.from(mustParse("::"), 1.5)).toThrow(RangeError);
  });
});

describe("address values", () => {
  test("unmap turns IPv4-mapped IPv6 into IPv4 and leaves the rest", () => {
    expect(unmap(mustParse("::ffff:192.0.2.1")).toString()).toBe("192.0.2.1");
    expect(unmap(mustParse("::ffff:192.0.2.1")).family).toBe(4);
    expect(unmap(mustParse("::ffff:0.0.0.0")).toString()).toBe("0.0.0.0");
    expect(unmap(mustParse("::192.0.2.1")).toString()).toBe("::c000:201");
    expect(unmap(mustParse("::fffe:192.0.2.1")).family).toBe(6);
    expect(unmap(mustParse("64:ff9b::192.0.2.1")).family).toBe(6);
    expect(unmap(mustParse("192.0.2.1")).toString()).toBe("192.0.2.1");
  });

  test("order: IPv4 before IPv6, then by value", () => {
    const sorted = ["::", "0.0.0.1", "255.255.255.255", "::1", "0.0.0.0", "ffff::"].map(mustParse);
    sorted.sort((a, b) => a.compare(b));
    expect(sorted.map(String)).toEqual(["0.0.0.0", "0.0.0.1", "255.255.255.255", "::", "::1", "ffff::"]);
    expect(mustParse("::ffff:1.2.3.4").equals(mustParse("1.2.3.4"))).toBe(false);
  });

  test("next and prev stop at the ends of the family", () => {
    expect(mustParse("10.0.0.255").next()?.toString()).toBe("10.0.1.0");
    expect(mustParse("255.255.255.255").next()).toBeNull();
    expect(mustParse("0.0.0.0").prev()).toBeNull();
    expect(mustParse("::ffff:ffff:ffff").next()?.toString()).toBe("::1:0:0:0");
    expect(mustParse("::1:0:0:0").prev()?.toString()).toBe("::ffff:255.255.255.255");
    expect(mustParse("0:0:0:1::").prev()?.toString()).toBe("::ffff:ffff:ffff:ffff");
    expect(mustParse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").next()).toBeNull();
    expect(mustParse("::").prev()).toBeNull();
    expect(mustParse("::").next()?.toString()).toBe("::1");
  });

  test("constructors check their range", () => {
    expect(IpAddr.v4(0xffffffff).toString()).toBe("255.255.255.255");
    expect(() => IpAddr.v4(2 ** 32)).toThrow(RangeError);
    expect(() => IpAddr.v4(-1)).toThrow(RangeError);
    expect(() => IpAddr.v4(1.5)).toThrow(RangeError);
    expect(() => IpAddr.v6(0, 0, 0, 2 ** 32)).toThrow(RangeError);
    expect(IpAddr.fromBigInt(6, (1n << 128n) - 1n).toString()).toBe(
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    );
    expect(IpAddr.fromBigInt(4, 0xc0000201n).toString()).toBe("192.0.2.1");
    expect(() => IpAddr.fromBigInt(4, 1n << 32n)).toThrow(RangeError);
    expect(() => IpAddr.fromBigInt(6, -1n)).toThrow(RangeError);
    expect(() => IpAddr.fromWords(4, 1, 0, 0, 0)).toThrow(RangeError);
  });
});
