import { cloudPlanText } from "../../domain/ip/cloud-reserved.ts";
import { makeRun } from "../args.ts";
import { CLOUD_OPTION, cloudProviderOf, reportInvalidEntry } from "../cloud.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { EntryChecks, STRICT_OPTION } from "../entry-checks.ts";
import { argOrigins } from "../input.ts";
import { EXIT, UsageError } from "../io.ts";
import { cidrLines } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools subnets [options] PREFIX NEWBITS...

Terraform's cidrsubnets(PREFIX, NEWBITS...): one block per NEWBITS, of PREFIX's length plus
NEWBITS (1 to 32), packed one after another in argument order, one CIDR a line. A gap left before
a larger block is never filled afterwards: "subnets 10.0.0.0/16 8 4 8" gives 10.0.0.0/24,
10.0.16.0/20, 10.0.32.0/24 (nettools alloc, first fit, would take 10.0.1.0/24 third).
When a block no longer fits inside PREFIX: exit 2, INSUFFICIENT_SPACE naming the argument, its
prefix length and the last block given, in Terraform's words.

Where Terraform answers differently: leading-zero octets (010.1.0.0/16) are refused here and read
as decimal by Terraform; a PREFIX at 0.0.0.0 or :: packs from there, where Terraform wraps around
and reports no space; IPv4-mapped prefixes (::ffff:10.0.0.0/104) are IPv6 here, IPv4 to Go.
--plain is accepted (the output is always one CIDR a line); not with --json.

With --cloud P, one line per block, CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST: the addresses cloud
provider P leaves usable in that block and the first and last of them (as split --cloud); IPv4
only, every block within P's subnet sizes, else exit 2 naming the first that is not. Not with
--json.

Options:
${options(18, { ...STRICT_OPTION, ...CLOUD_OPTION, "--plain": null })}
${helpFooter("0 every block fits (a block that does not is INSUFFICIENT_SPACE, exit 2)")}

Examples: nettools subnets 10.1.0.0/16 4 4 8 4
          nettools subnets --cloud aws 10.1.0.0/16 4 4 8 4`;

export const subnets = command("subnets", HELP, async ({ values, positionals, tokens }, io) => {
  const [prefix, ...bits] = positionals;
  if (prefix === undefined)
    throw new UsageError("subnets needs a PREFIX and NEWBITS: subnets 10.1.0.0/16 4 4 8 4");
  const run = makeRun(io, values);
  const provider = values.cloud === undefined ? null : cloudProviderOf(values.cloud);
  if (provider !== null && run.json) throw new UsageError("--cloud prints lines; not with --json");
  const newbits = bits.map((text) => {
    if (!/^(0|[1-9][0-9]{0,5})$/.test(text)) {
      throw new UsageError(`each NEWBITS must be a whole number of bits such as 4 or 8, not "${text}"`);
    }
    return Number(text);
  });
  const origins = argOrigins(tokens, []).get("positionals") ?? [];
  const checks = new EntryChecks(io, values);
  checks.hostBits(prefix);
  const stop = checks.verdict();
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrSubnets", { prefix, newbits });
  if (provider !== null && result.ok) {
    const plan = cloudPlanText(provider, result.value.cidrs);
    if (!plan.ok) return reportInvalidEntry(io, false, `--cloud ${provider}`, plan.message);
    io.stdout(plan.value);
    return EXIT.ok;
  }
  return report(result, run, cidrLines, {
    lists: {
      prefix: { noun: "the prefix", entries: [prefix], origins: origins.slice(0, 1) },
      newbits: { noun: "the newbits", entries: bits, origins: origins.slice(1) },
    },
    plain: cidrLines,
    list: true,
  });
});
