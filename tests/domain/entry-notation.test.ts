/**
 * Issue 18: netmask notation and address ranges are refused as entries (CONTRACT §2 stays strict),
 * with a message that names the accepted form and what converts to it.
 */
import { describe, expect, test } from "bun:test";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";

function refusal(text: string): string {
  const parsed = parsePrefix(text);
  if (parsed.ok) throw new Error(`${text} was accepted`);
  return parsed.message;
}

describe("netmask notation", () => {
  test.each([
    ["10.0.0.0/255.255.255.0", "10.0.0.0/24"],
    ["192.0.2.7/255.255.255.255", "192.0.2.7/32"],
    ["10.0.0.0/255.0.0.0", "10.0.0.0/8"],
    ["0.0.0.0/0.0.0.0", "0.0.0.0/0"],
    ["172.16.0.0/255.240.0.0", "172.16.0.0/12"],
  ])("%s names the CIDR to write instead, %s", (text, cidr) => {
    const message = refusal(text);
    expect(message).toContain("netmask notation");
    expect(message.endsWith(`write the prefix length instead: ${cidr}`)).toBe(true);
    // and that CIDR is accepted
    expect(parsePrefix(cidr).ok).toBe(true);
  });

  test("a mask that is not contiguous is named as such, with the accepted form", () => {
    expect(refusal("10.0.0.0/255.0.255.0")).toBe(
      '"10.0.0.0/255.0.255.0" is not a valid IPv4 CIDR: "255.0.255.0" is netmask notation, and not a contiguous netmask; write a prefix length after "/" (0 to 32)',
    );
  });
});

describe("address ranges", () => {
  test.each(["10.0.0.0-10.0.0.255", "10.0.0.0 - 10.0.0.255", " 2001:db8::-2001:db8::ff "])(
    "%s is refused, naming range-to-cidrs",
    (text) => {
      const message = refusal(text);
      expect(message).toContain("it is an address range (START-END), not an address or CIDR");
      expect(message).toContain("range-to-cidrs (nettools range)");
      const addr = parseAddr(text);
      expect(!addr.ok && addr.message.includes("address range")).toBe(true);
    },
  );

  test("a dash that does not join two addresses of one family keeps the ordinary message", () => {
    expect(refusal("1.2.3.-4")).toBe('"1.2.3.-4" is not a valid IPv4 address: unexpected character "-"');
    expect(refusal("10.0.0.0-::1")).not.toContain("range");
  });
});
