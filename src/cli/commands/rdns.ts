import { isClientError } from "../../client/index.ts";
import { absoluteNameServer, bindText } from "../../domain/cidr/bind-zones.ts";
import { makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { argOrigins } from "../input.ts";
import { renderInputError } from "../input-errors.ts";
import { EXIT, UsageError } from "../io.ts";
import { failureExit, report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools rdns [options] CIDR|ADDRESS...

The reverse DNS zones to create for each block, one a line, lowest first: whole octets under
in-addr.arpa. (IPv4), whole nibbles under ip6.arpa. (IPv6). A block between two boundaries gets
every zone of the next one below it: 100.64.0.0/10 is the 64 zones 64.100.in-addr.arpa. to
127.100.in-addr.arpa. An IPv4 block from /25 to /31 gets its RFC 2317 classless name,
FIRST/p.C.B.A.in-addr.arpa. (192.0.2.64/26 is 64/26.2.0.192.in-addr.arpa.); where your DNS
writes FIRST-LAST or FIRST-p instead, rewrite the first label (64-127 or 64-26). An ADDRESS
(no "/") prints its PTR name. IPv4-mapped IPv6 (::ffff:a.b.c.d) is IPv6.

With --bind, what a BIND operator writes for each zone instead of its name alone: for a zone on an
octet or nibble boundary, its zone statement for named.conf (zone "…" { type master; file "…"; };);
for an RFC 2317 block, the lines of the parent /24 zone (the NS delegation of the child zone and
one "$GENERATE FIRST-LAST $ CNAME $.CHILD." line for its addresses) and the child zone's
$ORIGIN line and zone statement. Lines starting with ";" are comments.
${options(18, {
  "--bind": "print the BIND statements and records, as above",
  "--ns NAME": {
    repeatable: `the name server the parent's NS line delegates to (repeatable; default
                  ns1.example.net., a placeholder to replace)`,
  },
})}

Several arguments print their zones in argument order. Every argument is checked before anything
is printed: any invalid one is reported (all of them), nothing else is printed, exit 2.
${ENTRY_CHECK_HELP}
${helpFooter("0 every zone is printed")}
With --json, one reverse-zones result a line, in argument order.

Examples: nettools rdns 100.64.0.0/10
          nettools rdns 192.0.2.7 2001:db8::7`;

/** The name server of the parent's NS line when `--ns` is not given: a placeholder (RFC 2606). */
const DEFAULT_NAME_SERVER = "ns1.example.net.";

/** `NAME` as an absolute DNS name (a dot at its end); a name with a space or nothing is a usage error. */
function absoluteName(name: string): string {
  const absolute = absoluteNameServer(name);
  if (absolute === null)
    throw new UsageError(`--ns must be a host name such as ns1.example.net., not "${name}"`);
  return absolute;
}

export const rdns = command("rdns", HELP, async ({ values, positionals, tokens }, io) => {
  const run = makeRun(io, values);
  if (values.bind && run.json) throw new UsageError("--bind prints BIND text; not with --json");
  if (values.ns !== undefined && !values.bind) throw new UsageError("--ns goes with --bind");
  const nameServers = (values.ns ?? [DEFAULT_NAME_SERVER]).map(absoluteName);
  if (positionals.length === 0)
    throw new UsageError("rdns needs at least one CIDR or address: rdns 100.64.0.0/10");
  const checks = new EntryChecks(io, values);
  const given = checks.list({
    entries: positionals,
    origins: argOrigins(tokens, []).get("positionals") ?? [],
  });
  const stop = checks.verdict([given]);
  if (stop !== null) return stop;
  const { entries: cidrs, origins } = given;
  const results = [];
  for (const cidr of cidrs) results.push(await runOperation(run, "reverseZones", { cidr }));
  if (results.every((result) => result.ok)) {
    let out = "";
    for (const result of results) {
      out += run.json
        ? `${JSON.stringify(result.value)}\n`
        : values.bind
          ? result.value.zones.map((zone) => bindText(zone, nameServers)).join("")
          : result.value.zones.map((zone) => `${zone}\n`).join("");
    }
    io.stdout(out);
    return EXIT.ok;
  }
  let exit: number = EXIT.ok;
  results.forEach((result, i) => {
    if (result.ok) return;
    exit = Math.max(exit, failureExit(result));
    if (run.json || isClientError(result.error)) {
      report(result, run, () => "");
      return;
    }
    // The API places the issue at ["cidr"]; on a terminal it is said at this argument's place.
    const issues = (result.error.issues ?? []).map((issue) => ({ ...issue, path: ["cidr", 0] }));
    const given = {
      cidr: { noun: "the block", entries: [cidrs[i]!], origins: [origins.at(i) ?? `arg ${i + 1}`] },
    };
    io.stderr(renderInputError({ ...result.error, issues }, given, run.err, run.client !== null));
  });
  return exit;
});
