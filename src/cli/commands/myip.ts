import type { PublicIpResultType } from "../../client/index.ts";
import { escapeForTerminal } from "../../local/terminal-text.ts";
import { makeRun } from "../args.ts";
import { command, help, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { UsageError } from "../io.ts";
import { type Style, table } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools myip --server URL [--json | --plain]

Prints the IP address your connection to the server comes from (a VPN or proxy changes it), then
what the server's GeoIP databases know of it, when it has any: asn, asnOrg and country, and the
credit their publisher asks for (DB-IP's).

Output option:
${options(18, { "--plain": "print only the address (for scripts); not with --json" })}
${helpFooter("0 the address is printed")}`;

/** The address on the first line, then each network fact the server added, then the credit. */
export function renderMyIp(result: PublicIpResultType, style: Style): string {
  // Every string is the server's, and its GeoIP data's: escaped before it reaches a terminal.
  const facts: [string, string][] = [];
  if (result.asn !== undefined) facts.push(["asn", escapeForTerminal(String(result.asn))]);
  if (result.asnOrg !== undefined) facts.push(["asnOrg", escapeForTerminal(result.asnOrg)]);
  if (result.country !== undefined) facts.push(["country", escapeForTerminal(result.country)]);
  let text = `${escapeForTerminal(result.ip)}\n`;
  if (facts.length > 0) text += table(null, facts, style, "  ");
  if (result.attribution !== undefined) text += `${style.dim(escapeForTerminal(result.attribution))}\n`;
  return text;
}

export const myip = command("myip", HELP, async ({ values, positionals }, io) => {
  if (positionals.length > 0) throw new UsageError("myip takes no arguments");
  const run = makeRun(io, values);
  if (run.client === null) {
    throw new UsageError(
      "myip needs a server to observe your address: pass --server URL or set NETTOOLS_SERVER",
    );
  }
  const result = await runOperation(run, "publicIp", undefined);
  return report(result, run, renderMyIp, { plain: (value) => `${escapeForTerminal(value.ip)}\n` });
});
