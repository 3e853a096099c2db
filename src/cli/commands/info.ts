/**
 * `nettools info CIDR|ADDRESS` (issue 13): what ipcalc and sipcalc say about a block — masks,
 * broadcast, usable hosts, counts and its special-purpose type — computed by the domain
 * (src/domain/ip/facts.ts, src/domain/ip/special.ts). Local only: the API has no such operation;
 * `--json` prints the facts object. `--cloud P` adds what a cloud provider reserves in the block as
 * a subnet (src/cli/cloud.ts; `cloud` in the JSON).
 */
import { cloudReservationOf } from "../../domain/ip/cloud-reserved.ts";
import { type AddressFacts, addressFacts } from "../../domain/ip/facts.ts";
import { addressFactRows } from "../../local/address-facts.ts";
import { CLOUD_OPTION, cloudProviderOf, renderCloud, reportInvalidEntry } from "../cloud.ts";
import { command, help, options } from "../command.ts";
import { EntryChecks, STRICT_OPTION } from "../entry-checks.ts";
import { EXIT, UsageError } from "../io.ts";
import { chooseStyle, type Style, table } from "../render.ts";

const HELP = help`Usage: nettools info [--json] [--cloud P] CIDR | ADDRESS

Facts about one address or block, as ipcalc and sipcalc print them: network and last address,
netmask and wildcard (IPv4), broadcast (IPv4 up to /30), first and last usable address and the
exact number of usable hosts, the address count, the number of /64s (IPv6), and the type from
the IANA special-purpose address registries (most specific block; global unicast otherwise).

Usable hosts: IPv4 leaves out the network and broadcast addresses, except /31 (both addresses
are usable, RFC 3021) and /32 (the address itself); IPv6 leaves out the Subnet-Router anycast
address (the first, RFC 4291), except /127 (both, RFC 6164) and /128.

With --cloud P, the block is a subnet of cloud provider P: the addresses P keeps (role: network,
router, dns, future, broadcast) and the usable count, first and last address that remain; an IPv6
block, or one outside P's subnet sizes, is exit 2.

Options:
${options(18, {
  "--json": 'print the facts as one JSON object (with --cloud, its "cloud" object too)',
  ...CLOUD_OPTION,
  ...STRICT_OPTION,
  "-h, --help": "show this help",
})}

Runs in this process; no server is involved.
Exit codes: 0 the facts are printed; 2 invalid input or usage.

Examples: nettools info 100.64.1.7/10
          nettools info --cloud aws 10.0.0.0/28`;

/** The facts as an aligned list (the rows shared with the page's calculator), the block bold. */
export function renderInfo(facts: AddressFacts, style: Style): string {
  const rows = addressFactRows(facts).map(([label, value]): [string, string] => [
    label,
    label === "cidr" ? style.bold(value) : value,
  ]);
  let out = table(null, rows, style);
  if (facts.contains.length > 0) {
    out += `\n${style.bold("special-purpose blocks inside")}\n`;
    out += table(
      null,
      facts.contains.map((block) => [`  ${block.prefix ?? ""}`, `${block.name}, ${block.rfc}`]),
      style,
    );
  }
  return out;
}

export const info = command("info", HELP, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError("info needs exactly one address or CIDR");
  const provider = values.cloud === undefined ? null : cloudProviderOf(values.cloud);
  const facts = addressFacts(positionals[0]!);
  const json = values.json === true;
  if (!facts.ok) return reportInvalidEntry(io, json, "arg 1", facts.message);
  const checks = new EntryChecks(io, values);
  checks.hostBits(positionals[0]!);
  const stop = checks.verdict();
  if (stop !== null) return stop;
  const style = chooseStyle(io.stdoutIsTty, io.env);
  if (provider === null) {
    io.stdout(json ? `${JSON.stringify(facts.value)}\n` : renderInfo(facts.value, style));
    return EXIT.ok;
  }
  const cloud = cloudReservationOf(provider, positionals[0]!);
  if (!cloud.ok) return reportInvalidEntry(io, json, `arg 1 (--cloud ${provider})`, cloud.message);
  io.stdout(
    json
      ? `${JSON.stringify({ ...facts.value, cloud: cloud.value })}\n`
      : renderInfo(facts.value, style) + renderCloud(cloud.value, style),
  );
  return EXIT.ok;
});
