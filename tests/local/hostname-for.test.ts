/** Which hostname `cert` and `chain` check (src/local/certificate-source.ts's hostnameFor). */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { hostnameFor } from "../../src/local/certificate-source.ts";

const none = { defaultHostname: null };

describe("hostnameFor", () => {
  test("the option wins over the --connect default, which is used when no option is given", () => {
    expect(hostnameFor("www.example.com", { defaultHostname: "other.example" }, false)).toEqual({
      request: "www.example.com",
    });
    expect(hostnameFor(undefined, { defaultHostname: "other.example" }, true)).toEqual({
      request: "other.example",
    });
    expect(hostnameFor(undefined, none, true)).toEqual({});
  });

  test("cert answers an address itself; a --connect address is no hostname to check", () => {
    for (const address of [
      "192.0.2.1",
      "2001:db8::1",
      "[2001:db8::1]",
      "fe80::1%eth0",
      "10.0.0.0/8",
      "01.2.3.4",
    ]) {
      expect(hostnameFor(address, none, true)).toEqual({ address });
      expect(hostnameFor(undefined, { defaultHostname: address }, true)).toEqual({});
      expect(hostnameFor(address, none, false)).toEqual({ request: address });
    }
  });

  test("every IPv4 and IPv6 address is taken for an address (the model: node:net's isIP)", async () => {
    const { isIP } = await import("node:net");
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.domain()), (text) => {
        const answer = hostnameFor(text, none, true);
        if (isIP(text) !== 0) expect(answer).toEqual({ address: text });
        else expect(answer).toEqual({ request: text });
      }),
    );
  });
});
