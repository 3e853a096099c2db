/** CONTRACT §12 "host bits said": the network a CIDR text with host bits set stands for. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { hostBitsNetwork } from "../../src/domain/ip/host-bits.ts";
import { entryNear, familyAndBase } from "./arbitraries.ts";
import { formatAddr, width } from "./model.ts";

describe("hostBitsNetwork", () => {
  test.each([
    ["192.0.2.0/22", "192.0.0.0/22"],
    ["10.1.2.3/8", "10.0.0.0/8"],
    [" 2001:db8::1/32 ", "2001:db8::/32"],
    ["::ffff:10.0.0.1/104", "::ffff:10.0.0.0/104"],
    ["0.0.0.1/0", "0.0.0.0/0"],
  ])("%s → %s", (text, network) => {
    expect(hostBitsNetwork(text)).toBe(network);
  });

  test.each([["192.0.0.0/22"], ["192.0.2.7"], ["2001:db8::1"], ["10.0.0.0/33"], ["junk"], ["10.0.0.1/32"]])(
    "%s: nothing to say",
    (text) => {
      expect(hostBitsNetwork(text)).toBeNull();
    },
  );

  test("against a BigInt model: null exactly when the host bits are clear or there is no /", () => {
    fc.assert(
      fc.property(
        familyAndBase.chain(({ family, base }) => entryNear(family, base)),
        (entry) => {
          const hostBits = width(entry.family) - entry.bits;
          const network = (entry.value >> BigInt(hostBits)) << BigInt(hostBits);
          const expected =
            entry.text.includes("/") && network !== entry.value
              ? `${formatAddr(entry.family, network)}/${entry.bits}`
              : null;
          expect(hostBitsNetwork(entry.text)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
