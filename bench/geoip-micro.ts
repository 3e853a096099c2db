/**
 * In-process micro-benchmark of the GeoIP enrichment (CONTRACT §8.10; issue 26 asks that it add at
 * most 5 % to public-ip): the two lookups one enriched answer makes (ASN and country records), and
 * whole `GET /v1/public-ip` requests through the handler Bun's router calls, with and without the
 * databases. CPU µs per call, the median of its rounds. Client addresses cycle through 4096 random
 * ones inside the databases, so the lookups walk many paths of the tree.
 *
 * The databases are the realistic-size ones bench/gen-geoip.pl writes (about 300,000 networks,
 * GeoLite2-sized country records), made on first run in bench/results/geoip/ (needs Debian's
 * libmaxmind-db-writer-perl):
 *   node_modules/.bin/bun bench/geoip-micro.ts [name-filter]
 */
import { existsSync, mkdirSync } from "node:fs";
import { MaxMindNetworkFacts } from "../src/adapters/geoip/maxmind-databases.ts";
import { realCertificateDeps } from "../src/adapters/real-deps.ts";
import { ProxyAwareClientAddressSource } from "../src/adapters/system/client-address.ts";
import { parseCidrList } from "../src/adapters/system/trusted-proxies.ts";
import { buildApp } from "../src/app.ts";
import { OPERATIONS } from "../src/contract/operations.ts";
import { IpAddr } from "../src/domain/ip/addr.ts";
import type { NetworkFacts } from "../src/domain/ports.ts";
import { createJsonLogger } from "../src/process/logger.ts";
import { runMicro } from "./lib/micro.ts";

const dir = new URL("./results/geoip/", import.meta.url).pathname;
if (!existsSync(`${dir}asn.mmdb`) || !existsSync(`${dir}country.mmdb`)) {
  mkdirSync(dir, { recursive: true });
  const made = Bun.spawnSync(["perl", new URL("./gen-geoip.pl", import.meta.url).pathname, dir], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (made.exitCode !== 0) throw new Error("bench/gen-geoip.pl failed");
}
const facts = await MaxMindNetworkFacts.open({ asn: `${dir}asn.mmdb`, country: `${dir}country.mmdb` });

// Seeded, so every run looks up the same addresses: IPv4 in 1.0.0.0–223.255.255.255, IPv6 in
// the 2000::–20ff:ff::/32 networks gen-geoip.pl writes.
let seed = 26;
const random = (): number => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return seed;
};
const v4 = Array.from({ length: 4096 }, () => IpAddr.v4(0x0100_0000 + (random() % 0xdf00_0000)));
const v6 = Array.from({ length: 4096 }, () =>
  IpAddr.v6(0x2000_0000 + (random() & 0xff_00ff), random(), random(), random()),
);
for (const address of [...v4.slice(0, 8), ...v6.slice(0, 8)]) {
  if (facts.asnOf(address)?.asn === undefined || facts.countryOf(address)?.country === undefined)
    throw new Error(`${address} is not in the benchmark databases`);
}

let turn = 0;
const lookUp = (addresses: IpAddr[]) => () => {
  const address = addresses[turn++ & 4095] as IpAddr;
  return [facts.asnOf(address), facts.countryOf(address)];
};

const texts = v4.map(String);
const handlerOf = (networkFacts: NetworkFacts | undefined) => {
  const { handle } = buildApp({
    logger: createJsonLogger("info", () => {}),
    cors: { kind: "any" },
    clientAddress: new ProxyAwareClientAddressSource(() => texts[turn++ & 4095] ?? null, parseCidrList("")),
    ...realCertificateDeps(),
    ...(networkFacts === undefined ? {} : { networkFacts }),
  });
  const url = `http://127.0.0.1${OPERATIONS.publicIp.path}`;
  return async () => {
    const response = await handle(new Request(url));
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  };
};

// Every call a new address: the kept answers almost never help (2^24 blocks, 65,536 kept).
const fresh = (family: 4 | 6) => () => {
  const address =
    family === 4
      ? IpAddr.v4(0x0100_0000 + (random() % 0xdf00_0000))
      : IpAddr.v6(0x2000_0000 + (random() & 0xff_00ff), random(), random(), random());
  return [facts.asnOf(address), facts.countryOf(address)];
};
// The same answers at no lookup cost: what the larger answer alone costs the handler.
const sample = v4[0] as IpAddr;
const [asn, country] = [facts.asnOf(sample), facts.countryOf(sample)];
const constantFacts: NetworkFacts = { asnOf: () => asn, countryOf: () => country, databases: () => [] };

await runMicro(
  {
    "lookup-ipv4": lookUp(v4),
    "lookup-ipv6": lookUp(v6),
    "lookup-ipv4-new": fresh(4),
    "lookup-ipv6-new": fresh(6),
    "public-ip": handlerOf(undefined),
    "public-ip-fields": handlerOf(constantFacts),
    "public-ip-geoip": handlerOf(facts),
  },
  { rounds: 11, roundMs: 200, warmupMs: 500, clock: "cpu", unit: "call" },
);
