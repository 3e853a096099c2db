import { writeFile } from "node:fs/promises";
import { privateKeyRefusal } from "../../client/certificate-answers.ts";
import type { RequestOf, ResultOf } from "../../contract/operations.ts";
import { COMMON_HELP, makeRun, parse } from "../args.ts";
import {
  hostnameFor,
  readCertificateSource,
  readRoots,
  SOURCE_HELP,
  SOURCE_OPTIONS,
} from "../certificate-source.ts";
import { EXIT, UsageError } from "../io.ts";
import { renderChain, renderChainVerdict } from "../render-chain.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools chain [options] FILE | - | --connect HOST[:PORT]

Builds the chain a server should send from a bundle (CONTRACT §7.1): the path from the server's
certificate to a trust anchor (in the bundle, a shipped root or your own --roots), what is wrong
with the bundle as sent (order, missing, repeated or unneeded certificates, the root, expiry, the
hostname), and the corrected fullchain.pem. With --fix the corrected file is the output:
  nettools chain --fix bundle.pem > fullchain.pem

Options:
  -H, --hostname NAME   check NAME (a DNS name, or an IPv4/IPv6 address against IP SANs)
  --leaf-index N        the position of the server's certificate, when there are several
  --fix                 write the corrected chain (fullchainPem) to stdout, the verdict to stderr
  -o, --output FILE     with --fix: write the corrected chain to FILE instead of stdout
  --include-root        append the anchor's certificate to the corrected chain
  --expires-within DAYS warn about, and exit 1 for, a path member expiring within DAYS
                        (0–3650; without it the warning is shown for 30 days, exit unchanged)
${SOURCE_HELP}
${COMMON_HELP}

Exit codes for chain: 0 the chain is complete and no problem is an error; 1 otherwise (the
corrected chain is still written), or a member expires within --expires-within DAYS; 2 invalid
input; 3 network or server failure (including --connect).

Example: nettools chain --fix --hostname www.example.com -o fullchain.pem bundle.pem`;

export const chain: Command = {
  name: "chain",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      hostname: { type: "string", short: "H" },
      "leaf-index": { type: "string" },
      fix: { type: "boolean" },
      output: { type: "string", short: "o" },
      "include-root": { type: "boolean" },
      "expires-within": { type: "string" },
      ...SOURCE_OPTIONS,
    });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    if (values.output !== undefined && !values.fix) throw new UsageError("-o/--output goes with --fix");
    if (values.fix && run.json) throw new UsageError("--fix and --json cannot be used together");
    const request: RequestOf<"certificateChain"> = { pem: "" };
    if (values["leaf-index"] !== undefined) {
      if (!/^\d+$/.test(values["leaf-index"])) {
        throw new UsageError(`--leaf-index must be a whole number, not "${values["leaf-index"]}"`);
      }
      request.leafIndex = Number(values["leaf-index"]);
    }
    const expiresWithin = values["expires-within"];
    if (expiresWithin !== undefined) {
      if (!/^\d+$/.test(expiresWithin) || Number(expiresWithin) > 3650) {
        throw new UsageError(
          `--expires-within must be a whole number of days from 0 to 3650, not "${expiresWithin}"`,
        );
      }
      request.expiryWarningDays = Number(expiresWithin);
    }
    if (values["include-root"]) request.includeRoot = true;
    const roots = await readRoots(run, values);
    if (roots !== undefined) request.roots = roots;
    const source = await readCertificateSource(run, positionals, values, "chain");
    if ("exit" in source) return source.exit;
    request.pem = source.pem;
    const hostname = hostnameFor(values.hostname, source, true);
    if (hostname !== undefined) request.hostname = hostname;
    const refusal = privateKeyRefusal(source.pem);
    if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderChain);

    const result = await runOperation(run, "certificateChain", request);
    if (!result.ok || run.json || !values.fix) {
      const code = report(result, run, renderChain, { source: source.pem });
      return result.ok ? chainExit(result.value, expiresWithin !== undefined) : code;
    }
    // --fix: the file on stdout (or -o FILE), the verdict and problems on stderr.
    io.stderr(renderChain(result.value, run.err));
    if (values.output !== undefined) {
      try {
        await writeFile(values.output, result.value.fullchainPem);
      } catch (error) {
        io.stderr(`${run.err.red("error")}: cannot write ${values.output}: ${(error as Error).message}\n`);
        return EXIT.failure;
      }
      io.stderr(`${renderChainVerdict(result.value, run.err)} Wrote ${values.output}.\n`);
    } else io.stdout(result.value.fullchainPem);
    return chainExit(result.value, expiresWithin !== undefined);
  },
};

/** 0 when complete with no error problem; 1 otherwise; EXPIRING counts only with --expires-within. */
export function chainExit(result: ResultOf<"certificateChain">, expiringCounts: boolean): number {
  if (result.status !== "complete") return EXIT.findings;
  if (result.problems.some((problem) => problem.severity === "error")) return EXIT.findings;
  if (expiringCounts && result.problems.some((problem) => problem.code === "EXPIRING")) return EXIT.findings;
  return EXIT.ok;
}
