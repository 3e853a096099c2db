/**
 * `nettools info`'s domain (issue 13): the facts about one block, and the special-purpose address
 * table. The table's rows are checked against the registries' own examples, and both the facts and
 * the types are cross-checked against Python's `ipaddress` (one python3 process) where Python and
 * the IANA registries mean the same thing.
 */
import { describe, expect, test } from "bun:test";
import { addressFacts } from "../../src/domain/ip/facts.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { classifyPrefix, SPECIAL_BLOCKS } from "../../src/domain/ip/special.ts";

function facts(text: string) {
  const result = addressFacts(text);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

function typeOf(text: string) {
  const parsed = parsePrefix(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return classifyPrefix(parsed.value).type;
}

describe("facts", () => {
  test("IPv4 /24 with host bits: masks, broadcast, usable range", () => {
    expect(facts("192.168.10.77/24")).toEqual({
      family: "ipv4",
      address: "192.168.10.77",
      cidr: "192.168.10.0/24",
      prefixLength: 24,
      netmask: "255.255.255.0",
      wildcard: "0.0.0.255",
      network: "192.168.10.0",
      broadcast: "192.168.10.255",
      lastAddress: "192.168.10.255",
      firstUsable: "192.168.10.1",
      lastUsable: "192.168.10.254",
      usableHosts: "254",
      addressCount: "256",
      subnets64: null,
      type: { prefix: "192.168.0.0/16", name: "Private-Use", rfc: "RFC 1918", globallyReachable: false },
      contains: [],
      embeddedIpv4: null,
    });
  });

  test("IPv4 /31 and /32 (RFC 3021): no broadcast, every address usable", () => {
    expect(facts("198.51.100.6/31")).toMatchObject({
      broadcast: null,
      firstUsable: "198.51.100.6",
      lastUsable: "198.51.100.7",
      usableHosts: "2",
    });
    expect(facts("198.51.100.6")).toMatchObject({
      cidr: "198.51.100.6/32",
      netmask: "255.255.255.255",
      wildcard: "0.0.0.0",
      broadcast: null,
      usableHosts: "1",
    });
    expect(facts("0.0.0.0/0")).toMatchObject({ usableHosts: "4294967294", addressCount: "4294967296" });
  });

  test("IPv6: exact counts, /64 count, no broadcast, the Subnet-Router anycast address left out", () => {
    expect(facts("2001:db8:abcd::1/48")).toMatchObject({
      address: "2001:db8:abcd::1",
      cidr: "2001:db8:abcd::/48",
      netmask: "ffff:ffff:ffff::",
      wildcard: null,
      broadcast: null,
      firstUsable: "2001:db8:abcd::1",
      lastUsable: "2001:db8:abcd:ffff:ffff:ffff:ffff:ffff",
      usableHosts: String(2n ** 80n - 1n),
      addressCount: String(2n ** 80n),
      subnets64: "65536",
    });
    expect(facts("::/0")).toMatchObject({ addressCount: String(2n ** 128n), subnets64: String(2n ** 64n) });
    expect(facts("2001:db8::/127")).toMatchObject({ usableHosts: "2", firstUsable: "2001:db8::" });
    expect(facts("2001:db8::1/128")).toMatchObject({ usableHosts: "1", subnets64: "0" });
  });

  test("an embedded IPv4 address is shown with its own type", () => {
    expect(facts("::ffff:10.1.2.3").embeddedIpv4).toEqual({
      address: "10.1.2.3",
      type: { prefix: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918", globallyReachable: false },
    });
    expect(facts("64:ff9b::198.51.100.1").embeddedIpv4?.address).toBe("198.51.100.1");
    expect(facts("2001:db8::1").embeddedIpv4).toBeNull();
  });

  test("invalid text fails with the parser's sentence", () => {
    const result = addressFacts("10.0.0.256");
    expect(result).toEqual({
      ok: false,
      message: '"10.0.0.256" is not a valid IPv4 address: octet 256 is above 255',
    });
    expect(addressFacts("10.0.0.0/33").ok).toBe(false);
  });
});

describe("special-purpose types", () => {
  test.each([
    ["10.20.30.40", "Private-Use", "RFC 1918"],
    ["172.31.255.255", "Private-Use", "RFC 1918"],
    ["100.64.0.0/10", "Shared Address Space", "RFC 6598"],
    ["127.0.0.1", "Loopback", "RFC 1122"],
    ["169.254.1.1", "Link Local", "RFC 3927"],
    ["192.0.0.9", "Port Control Protocol Anycast", "RFC 7723"],
    ["192.0.0.77", "IETF Protocol Assignments", "RFC 6890"],
    ["192.0.2.0/25", "Documentation (TEST-NET-1)", "RFC 5737"],
    ["198.19.0.1", "Benchmarking", "RFC 2544"],
    ["224.0.0.251", "Multicast", "RFC 5771"],
    ["250.1.2.3", "Reserved", "RFC 1112"],
    ["255.255.255.255", "Limited Broadcast", "RFC 919"],
    ["8.8.8.8", "Global unicast", "RFC 791"],
    ["2001:db8::/32", "Documentation", "RFC 3849"],
    ["2001:db8:1::/48", "Documentation", "RFC 3849"],
    ["fd12:3456::1", "Unique-Local", "RFC 4193"],
    ["fe80::1", "Link-Local Unicast", "RFC 4291"],
    ["::ffff:192.0.2.1", "IPv4-mapped Address", "RFC 4291"],
    ["64:ff9b::/96", "IPv4-IPv6 Translation (NAT64 well-known prefix)", "RFC 6052"],
    ["::1", "Loopback Address", "RFC 4291"],
    ["::", "Unspecified Address", "RFC 4291"],
    ["2001:0:4136:e378::1", "TEREDO", "RFC 4380"],
    ["2002:c000:201::1", "6to4", "RFC 3056"],
    ["2001:1::1", "Port Control Protocol Anycast", "RFC 7723"],
    ["2001:1::5", "IETF Protocol Assignments", "RFC 2928"],
    ["3fff:1::1", "Documentation", "RFC 9637"],
    ["ff02::1", "Multicast", "RFC 4291"],
    ["2a00:1450::1", "Global Unicast", "RFC 4291"],
    ["4000::1", "Reserved by IETF", "RFC 4291"],
  ])("%s is %s (%s)", (text, name, rfc) => {
    expect(typeOf(text)).toMatchObject({ name, rfc });
  });

  test("the most specific block wins; a wider block lists the blocks inside it", () => {
    expect(typeOf("192.0.0.0/29").name).toBe("IPv4 Service Continuity Prefix");
    expect(typeOf("192.0.0.0/24").name).toBe("IETF Protocol Assignments");
    const wide = classifyPrefix((parsePrefix("192.0.0.0/16") as { ok: true; value: never }).value);
    expect(wide.type.name).toBe("Global unicast");
    expect(wide.contains.map((block) => block.prefix)).toEqual([
      "192.0.0.0/24",
      "192.0.0.0/29",
      "192.0.0.8/32",
      "192.0.0.9/32",
      "192.0.0.10/32",
      "192.0.0.170/32",
      "192.0.0.171/32",
      "192.0.2.0/24",
    ]);
  });

  test("every table row is a canonical block and no two rows are the same block", () => {
    const seen = new Set<string>();
    for (const block of SPECIAL_BLOCKS) {
      expect(block.parsed.toString()).toBe(block.prefix);
      expect(seen.has(block.prefix)).toBe(false);
      seen.add(block.prefix);
    }
  });
});

/** Python's answers for many addresses, in one python3 process. */
function python(addresses: string[], networks: string[]) {
  const script = `
import ipaddress, json, sys
data = json.load(sys.stdin)
out = {"addresses": [], "networks": []}
for a in data["addresses"]:
    x = ipaddress.ip_address(a)
    out["addresses"].append({k: getattr(x, k) for k in
        ["is_global", "is_private", "is_multicast", "is_loopback", "is_link_local", "is_reserved", "is_unspecified"]})
for n in data["networks"]:
    net = ipaddress.ip_network(n, strict=False)
    hosts = list(net.hosts()) if net.num_addresses <= 4096 else None
    out["networks"].append({"netmask": str(net.netmask), "hostmask": str(net.hostmask),
        "broadcast": str(net.broadcast_address), "count": str(net.num_addresses),
        "hosts": None if hosts is None else [len(hosts), str(hosts[0]), str(hosts[-1])]})
print(json.dumps(out))
`;
  const run = Bun.spawnSync(["python3", "-c", script], {
    stdin: new TextEncoder().encode(JSON.stringify({ addresses, networks })),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as {
    addresses: Record<string, boolean>[];
    networks: {
      netmask: string;
      hostmask: string;
      broadcast: string;
      count: string;
      hosts: [number, string, string] | null;
    }[];
  };
}

/** A deterministic spread of addresses: a few inside every block, and some anywhere. */
function sampleAddresses(): string[] {
  const out: string[] = [];
  for (const block of SPECIAL_BLOCKS) {
    const { first, last } = block.parsed;
    out.push(first.toString(), last.toString());
    const middle = first.next();
    if (middle !== null && block.parsed.contains(middle)) out.push(middle.toString());
  }
  // mulberry32: a small seeded generator with exact 32-bit arithmetic.
  let seed = 6890;
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const word = (t ^ (t >>> 14)) >>> 0;
    return word;
  };
  for (let i = 0; i < 300; i++) out.push([next() & 255, next() & 255, next() & 255, next() & 255].join("."));
  for (let i = 0; i < 300; i++) {
    const groups = Array.from({ length: 8 }, () => (next() & 0xffff).toString(16));
    out.push(groups.join(":"));
  }
  return out;
}

/**
 * Blocks where Python's `is_global` (3.11 and later) does not follow the registry's "Globally
 * Reachable" column: Python's private list predates these registry rows or lumps them into a wider
 * block. Everything else must agree.
 */
const KNOWN_GLOBAL_DIFFERENCES = new Set([
  "192.0.0.0/24", // Python: only 192.0.0.0/29 and 192.0.0.170/31 are private
  "192.0.0.8/32",
  "2001:1::1/128", // Python: all of 2001::/23 is private, the anycast rows included
  "2001:1::2/128",
  "2001:3::/32",
  "2001:4:112::/48",
  "2001:20::/28",
  "2001:30::/28",
  "64:ff9b:1::/48", // Python ≤ 3.12.3 does not list it
  "3fff::/20",
  "5f00::/16",
  "reserved", // IPv6 outside 2000::/3: Python says is_reserved but also is_global
]);

describe("cross-checked with Python's ipaddress", () => {
  test("loopback, link-local, multicast, unspecified, reserved and global agree with the types", () => {
    const addresses = sampleAddresses();
    const answers = python(addresses, []).addresses;
    const differences = new Set<string>();
    let agreed = 0;
    addresses.forEach((text, i) => {
      const py = answers[i]!;
      const type = typeOf(text);
      const is = (...names: string[]) => names.includes(type.name);
      expect([text, py.is_loopback]).toEqual([text, is("Loopback", "Loopback Address")]);
      expect([text, py.is_link_local]).toEqual([text, is("Link Local", "Link-Local Unicast")]);
      expect([text, py.is_multicast]).toEqual([text, is("Multicast")]);
      if (is("Reserved by IETF", "Reserved")) expect([text, py.is_reserved]).toEqual([text, true]);
      if (py.is_unspecified) expect(is("Unspecified Address", '"This host on this network"')).toBe(true);
      if (type.globallyReachable === null) return;
      if (py.is_global === type.globallyReachable) agreed++;
      else differences.add(type.prefix ?? (type.name === "Reserved by IETF" ? "reserved" : text));
    });
    for (const block of differences) expect(KNOWN_GLOBAL_DIFFERENCES).toContain(block);
    // Most of the sample is compared: every IPv4 draw and every row but the N/A ones.
    expect(agreed).toBeGreaterThan(400);
  });

  test("netmask, wildcard, broadcast, counts and usable hosts agree with Python", () => {
    const networks: string[] = [];
    for (let bits = 0; bits <= 32; bits++) networks.push(`10.${bits}.77.9/${bits}`);
    for (let bits = 0; bits <= 128; bits += bits < 112 ? 7 : 1)
      networks.push(`2001:db8:1234:5678::9:1/${bits}`);
    const answers = python([], networks).networks;
    networks.forEach((text, i) => {
      const py = answers[i]!;
      const ours = facts(text);
      expect([text, ours.netmask, ours.addressCount]).toEqual([text, py.netmask, py.count]);
      if (ours.family === "ipv4") {
        expect(ours.wildcard).toBe(py.hostmask);
        if (ours.broadcast !== null) expect(ours.broadcast).toBe(py.broadcast);
      }
      if (py.hosts !== null) {
        expect([text, ours.usableHosts, ours.firstUsable, ours.lastUsable]).toEqual([
          text,
          String(py.hosts[0]),
          py.hosts[1],
          py.hosts[2],
        ]);
      }
    });
  });
});
