/**
 * Cloud-reserved addresses (CONTRACT §8.9): each provider's documented example, its bounds and
 * their messages, IPv6 refused, and every subnet from the smallest up to /20 checked address by
 * address against the contract's table (written out here again, as offsets).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  CLOUD_PROVIDERS,
  type CloudProvider,
  cloudPlanText,
  cloudReservationOf,
  usablePerSubnet,
} from "../../src/domain/ip/cloud-reserved.ts";
import { formatAddr } from "./model.ts";

describe("a /24 as each provider documents it", () => {
  test("aws: +0 network, +1 router, +2 DNS, +3 future, last broadcast; 251 usable", () => {
    expect(cloudReservationOf("aws", "10.0.0.0/24")).toEqual({
      ok: true,
      value: {
        provider: "aws",
        reserved: [
          { address: "10.0.0.0", role: "network" },
          { address: "10.0.0.1", role: "router" },
          { address: "10.0.0.2", role: "dns" },
          { address: "10.0.0.3", role: "future" },
          { address: "10.0.0.255", role: "broadcast" },
        ],
        usableAddressCount: "251",
        firstUsable: "10.0.0.4",
        lastUsable: "10.0.0.254",
      },
    });
  });

  test("azure: +2 and +3 both DNS; 251 usable", () => {
    const azure = cloudReservationOf("azure", "192.168.1.0/24");
    expect(azure.ok && azure.value.reserved.map((r) => `${r.address} ${r.role}`)).toEqual([
      "192.168.1.0 network",
      "192.168.1.1 router",
      "192.168.1.2 dns",
      "192.168.1.3 dns",
      "192.168.1.255 broadcast",
    ]);
    expect(azure.ok && azure.value.usableAddressCount).toBe("251");
  });

  test("gcp: the second-to-last is kept for future use; 252 usable, .2 to .253", () => {
    const gcp = cloudReservationOf("gcp", "10.128.0.0/24");
    expect(gcp.ok && gcp.value).toMatchObject({
      reserved: [
        { address: "10.128.0.0", role: "network" },
        { address: "10.128.0.1", role: "router" },
        { address: "10.128.0.254", role: "future" },
        { address: "10.128.0.255", role: "broadcast" },
      ],
      usableAddressCount: "252",
      firstUsable: "10.128.0.2",
      lastUsable: "10.128.0.253",
    });
  });

  test("oci: the first two and the last; 253 usable; a /30 leaves one address", () => {
    const oci = cloudReservationOf("oci", "10.0.1.0/24");
    expect(oci.ok && [oci.value.usableAddressCount, oci.value.firstUsable, oci.value.lastUsable]).toEqual([
      "253",
      "10.0.1.2",
      "10.0.1.254",
    ]);
    const tiny = cloudReservationOf("oci", "10.0.1.4/30");
    expect(tiny.ok && [tiny.value.usableAddressCount, tiny.value.firstUsable, tiny.value.lastUsable]).toEqual(
      ["1", "10.0.1.6", "10.0.1.6"],
    );
  });
});

describe("bounds: messages name the provider's bound", () => {
  test.each([
    [
      "aws",
      "10.0.0.0/29",
      "10.0.0.0/29 is smaller than /28, the smallest subnet AWS allows (EC2 CreateSubnet: /16 to /28)",
    ],
    [
      "aws",
      "10.0.0.0/15",
      "10.0.0.0/15 is larger than /16, the largest subnet AWS allows (EC2 CreateSubnet: /16 to /28)",
    ],
    [
      "azure",
      "10.0.0.0/30",
      "10.0.0.0/30 is smaller than /29, the smallest subnet Azure allows (Azure Virtual Network FAQ: /29 or shorter)",
    ],
    [
      "gcp",
      "10.0.0.0/30",
      "10.0.0.0/30 is smaller than /29, the smallest subnet Google Cloud allows (Google Cloud VPC subnets: /29 or shorter)",
    ],
    [
      "oci",
      "10.0.0.0/31",
      "10.0.0.0/31 is smaller than /30, the smallest subnet OCI allows (OCI Networking Overview: /30 or shorter)",
    ],
    [
      "aws",
      "2001:db8::/64",
      "2001:db8::/64 is IPv6; --cloud aws describes the addresses AWS reserves in IPv4 subnets only",
    ],
    [
      "gcp",
      "::ffff:10.0.0.0/120",
      "::ffff:10.0.0.0/120 is IPv6; --cloud gcp describes the addresses Google Cloud reserves in IPv4 subnets only",
    ],
    ["oci", "10.0.0.256/24", '"10.0.0.256/24" is not a valid IPv4 CIDR: octet 256 is above 255'],
  ] as const)("%s %s", (provider, cidr, message) => {
    expect(cloudReservationOf(provider, cidr)).toEqual({ ok: false, message });
  });

  test("the bounds themselves are accepted: aws /16 and /28, azure and gcp /29, oci /30, any of them /8", () => {
    for (const [provider, cidr] of [
      ["aws", "10.0.0.0/16"],
      ["aws", "10.0.0.0/28"],
      ["azure", "10.0.0.0/29"],
      ["gcp", "10.0.0.0/29"],
      ["oci", "10.0.0.0/30"],
      ["azure", "10.0.0.0/8"],
      ["gcp", "10.0.0.0/8"],
      ["oci", "10.0.0.0/8"],
    ] as const) {
      expect(cloudReservationOf(provider, cidr).ok).toBe(true);
    }
    expect(usablePerSubnet("aws", 28)).toBe(11);
    expect(usablePerSubnet("azure", 29)).toBe(3);
    expect(usablePerSubnet("gcp", 29)).toBe(4);
    expect(usablePerSubnet("oci", 30)).toBe(1);
  });
});

/** The contract's table as offsets: from the first address up, and back from the last. */
const TABLE: Record<CloudProvider, { head: number; tail: number; longest: number; shortest: number }> = {
  aws: { head: 4, tail: 1, longest: 28, shortest: 16 },
  azure: { head: 4, tail: 1, longest: 29, shortest: 0 },
  gcp: { head: 2, tail: 2, longest: 29, shortest: 0 },
  oci: { head: 2, tail: 1, longest: 30, shortest: 0 },
};

test("every address of random subnets /20 to the smallest: kept or usable exactly as the table says", () => {
  const subnet = fc.record({
    provider: fc.constantFrom(...CLOUD_PROVIDERS),
    value: fc.integer({ min: 0, max: 0xffff_ffff }),
    bits: fc.integer({ min: 20, max: 30 }),
  });
  const cases = fc.sample(subnet, { numRuns: 300, seed: 8890 });
  let checked = 0;
  for (const { provider, value, bits } of cases) {
    const rule = TABLE[provider];
    const size = 2 ** (32 - bits);
    const first = value - (value % size);
    const answer = cloudReservationOf(provider, `${formatAddr(4, BigInt(value))}/${bits}`);
    if (bits > rule.longest || bits < rule.shortest) {
      expect(answer.ok).toBe(false);
      continue;
    }
    if (!answer.ok) throw new Error(answer.message);
    const kept: string[] = [];
    const usable: string[] = [];
    for (let offset = 0; offset < size; offset++) {
      const text = formatAddr(4, BigInt(first + offset));
      (offset < rule.head || offset >= size - rule.tail ? kept : usable).push(text);
    }
    expect(answer.value.reserved.map((r) => r.address)).toEqual(kept);
    expect([answer.value.usableAddressCount, answer.value.firstUsable, answer.value.lastUsable]).toEqual([
      String(usable.length),
      usable[0]!,
      usable.at(-1)!,
    ]);
    checked++;
  }
  expect(checked).toBeGreaterThan(100);
});

describe("cloudPlanText: a plan's lines (subnets --cloud and the page)", () => {
  test("one CIDR TAB USABLE TAB FIRST TAB LAST line per block, each sized on its own", () => {
    expect(cloudPlanText("azure", ["10.0.0.0/24", "10.0.1.0/29"])).toEqual({
      ok: true,
      value: "10.0.0.0/24\t251\t10.0.0.4\t10.0.0.254\n10.0.1.0/29\t3\t10.0.1.4\t10.0.1.6\n",
    });
    expect(cloudPlanText("oci", [])).toEqual({ ok: true, value: "" });
  });

  test("property: each line is the block's reservation; the first block the provider refuses is named", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CLOUD_PROVIDERS),
        fc.array(
          fc
            .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 8, max: 32 }))
            .map(([value, bits]) => {
              const network = Math.floor(value / 2 ** (32 - bits)) * 2 ** (32 - bits);
              return `${formatAddr(4, BigInt(network))}/${bits}`;
            }),
          { maxLength: 8 },
        ),
        (provider, cidrs) => {
          const plan = cloudPlanText(provider, cidrs);
          const reservations = cidrs.map((cidr) => cloudReservationOf(provider, cidr));
          const refused = reservations.find((reservation) => !reservation.ok);
          if (refused !== undefined) {
            expect(plan).toEqual(refused);
            return;
          }
          if (!plan.ok) throw new Error("a plan of accepted blocks was refused");
          expect(plan.value.split("\n").slice(0, -1)).toEqual(
            reservations.map((reservation, i) => {
              if (!reservation.ok) throw new Error("unreachable");
              const { usableAddressCount, firstUsable, lastUsable } = reservation.value;
              return [cidrs[i], usableAddressCount, firstUsable, lastUsable].join("\t");
            }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
