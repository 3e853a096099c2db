import { collectEntries, stdinOnce } from "../../local/list-sources.ts";
import { writeSpecialReasons } from "../../local/special-reason-lines.ts";
import { CIDR_HELP } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { ENTRY_CHECK_HELP, EntryChecks } from "../entry-checks.ts";
import { argOrigins } from "../input.ts";
import { UsageError } from "../io.ts";
import { FORMAT_HELP, listRunOf, printList } from "../list-format.ts";
import { renderMixedMerge } from "../render.ts";
import { runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools merge [options] ENTRY... | -

Collapses addresses and CIDRs into the minimal sorted list of CIDRs covering exactly their union:
duplicates and overlaps removed, adjacent blocks joined. IPv4 and IPv6 may mix: the IPv4 blocks
come first, then the IPv6 blocks (IPv4-mapped ::ffff:a.b.c.d is IPv6). --json prints the
cidr-merge result.
ENTRY is an address or CIDR; "-" reads entries from stdin, one a line (blank lines and
"# comments" are skipped).

Options:
${options(20, {
  "-f, --file FILE": { repeatable: 'read entries from FILE, one a line ("-" = stdin); repeatable' },
  "-4": "print only the IPv4 blocks",
  "-6": "print only the IPv6 blocks",
  "-x, --exclude-reserved": `
                    first remove the special-purpose space that is not globally reachable
                    (private, loopback, link-local, documentation, … by the IANA registries'
                    most specific row); each entry dropped or cut says so on stderr, once,
                    naming the most general special block it met:
                    "excluded 10.1.0.0/16: 10.0.0.0/8 Private-Use (RFC 1918)",
                    "cut 10.0.0.0/7: 10.0.0.0/8 Private-Use (RFC 1918) removed";
                    the rest goes to stdout as usual`,
})}
${CIDR_HELP}
${ENTRY_CHECK_HELP}
Not on a terminal (a pipe or a file), the CIDRs are printed one a line with nothing else.
${FORMAT_HELP}
${helpFooter("0 the merged list is printed")}

Examples: nettools merge -f blocklist.txt > merged.txt
          nettools merge -x --format nft --set-name blocklist -f feed.txt > blocklist.nft`;

export const merge = command("merge", HELP, async ({ values, positionals, tokens }, io) => {
  const { run, output } = listRunOf(io, values);
  if (values["4"] && values["6"]) throw new UsageError("-4 and -6 cannot be used together");
  if ((values["4"] || values["6"]) && run.json) {
    throw new UsageError("-4 and -6 filter the printed list; --json prints the whole cidr-merge result");
  }
  const origins = argOrigins(tokens, []).get("positionals") ?? [];
  const given = await collectEntries(positionals, origins, values.file ?? [], io, stdinOnce(io));
  if (given.entries.length === 0) throw new UsageError("merge needs at least one address or CIDR");
  const checks = new EntryChecks(io, values);
  const entries = checks.list(given);
  const stop = checks.verdict([entries]);
  if (stop !== null) return stop;
  const excludeSpecial = values["exclude-reserved"] === true;
  const result = await runOperation(run, "cidrMerge", {
    inputs: entries.entries,
    ...(excludeSpecial ? { excludeSpecial } : {}),
  });
  const only = values["4"] ? "ipv4" : values["6"] ? "ipv6" : null;
  const shows = (cidr: string) => only === null || cidr.includes(":") === (only === "ipv6");
  if (result.ok && excludeSpecial && !run.json) writeSpecialReasons(entries, only, io.stderr);
  const shown =
    result.ok && only !== null
      ? {
          ...result,
          value: {
            cidrs: result.value.cidrs.filter(shows),
            ipv4AddressCount: only === "ipv4" ? result.value.ipv4AddressCount : "0",
            ipv6AddressCount: only === "ipv6" ? result.value.ipv6AddressCount : "0",
          },
        }
      : result;
  return printList(shown, run, output, renderMixedMerge, {
    lists: { inputs: { noun: "the address list", ...entries } },
    families: only ?? "both",
    minimal: true,
  });
});
