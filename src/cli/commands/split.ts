import { MAX_RESULT_CIDRS } from "../../domain/limits.ts";
import { CLOUD_OPTION, cloudProviderOf, printCloudSplit } from "../cloud.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { EntryChecks, STRICT_OPTION } from "../entry-checks.ts";
import { EXIT, UsageError } from "../io.ts";
import { FORMAT_HELP, listRunOf, printList } from "../list-format.ts";
import { renderSplit } from "../render.ts";
import { runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools split [options] CIDR LENGTH

Every subnet of prefix length LENGTH (written 24 or /24) inside CIDR, in address order, as
"ipcalc -S" and "sipcalc -s" print them. CIDR may be an address (a /32 or /128). Run in this
process, up to 1000000 subnets; more is refused at once with the exact count (a server allows
10000). Subnets are numbered from 0 in address order; --count, --first and --index answer for
any number of them.
Not on a terminal (a pipe or a file), the subnets are printed one a line with nothing else.

With --cloud P, one line per subnet, CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST: the addresses left by
cloud provider P's reservations, and the first and last of them (--json adds "cloud" with
"provider" and "usablePerSubnet"); IPv4 only, LENGTH within P's subnet sizes, else exit 2.

Options:
${options(18, {
  "--count": "print only the number of subnets (a decimal number, exact)",
  "--first N": `print only the first N subnets (1 to ${MAX_RESULT_CIDRS})`,
  "--index N": `print only subnet number N, from 0: Terraform's cidrsubnet(CIDR, LENGTH − the
                  block's length, N); with --first, N subnets from number N`,
  ...STRICT_OPTION,
})}

Output option:
${options(18, { "--plain": "print only the subnets, one a line; not with --json" })}
${FORMAT_HELP}
${options(18, CLOUD_OPTION)}
${helpFooter("0 the subnets (or their count) are printed")}

Examples: nettools split 10.0.0.0/22 /24
          nettools split --count 2001:db8::/32 64
          nettools split --index 162 fd00:fd12:3456:7800::/56 72
          nettools split --cloud aws 10.0.0.0/24 26`;

/** A decimal number without leading zeros, as the API writes counts. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

export const split = command("split", HELP, async ({ values, positionals }, io) => {
  const { run, output } = listRunOf(io, values);
  const provider = values.cloud === undefined ? null : cloudProviderOf(values.cloud);
  if (positionals.length !== 2)
    throw new UsageError("split needs a CIDR and a prefix length: split 10.0.0.0/22 24");
  const [cidr, lengthText] = positionals as [string, string];
  const digits = lengthText.startsWith("/") ? lengthText.slice(1) : lengthText;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(digits)) {
    throw new UsageError(`the prefix length must be a whole number such as 24 or /24, not "${lengthText}"`);
  }
  if (
    values.count &&
    (values.first !== undefined || values.index !== undefined || output !== null || run.json)
  ) {
    throw new UsageError(
      "--count prints only the number of subnets: not with --first, --index, --format or --json",
    );
  }
  const first = values.first;
  if (
    first !== undefined &&
    (!DECIMAL.test(first) || Number(first) < 1 || Number(first) > MAX_RESULT_CIDRS)
  ) {
    throw new UsageError(`--first must be a whole number from 1 to ${MAX_RESULT_CIDRS}, not "${first}"`);
  }
  const index = values.index;
  if (index !== undefined && !DECIMAL.test(index)) {
    throw new UsageError(`--index must be a whole number from 0 (a subnet's number), not "${index}"`);
  }
  // --count asks for one subnet: the answer's subnetCount is exact however many there are.
  const limit = values.count ? 1 : first !== undefined ? Number(first) : index !== undefined ? 1 : undefined;
  const checks = new EntryChecks(io, values);
  checks.hostBits(cidr);
  const stop = checks.verdict();
  if (stop !== null) return stop;
  const result = await runOperation(run, "cidrSplit", {
    cidr,
    prefixLength: Number(digits),
    ...(index === undefined ? {} : { offset: index }),
    ...(limit === undefined ? {} : { limit }),
  });
  const lists = {
    cidr: { noun: "the block", entries: [cidr], origins: ["arg 1"] },
    offset: { noun: "--index", entries: index === undefined ? [] : [index], origins: [] },
  };
  if (provider !== null && result.ok) return printCloudSplit(result.value, provider, run);
  if (values.count && result.ok) {
    io.stdout(`${result.value.subnetCount}\n`);
    return EXIT.ok;
  }
  return printList(result, run, output, renderSplit, { lists });
});
