import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
} from "../../client/certificate-answers.ts";
import type { RequestOf } from "../../contract/operations.ts";
import { COMMON_HELP, makeRun, parse, readSource, stdinOnce } from "../args.ts";
import { EXIT, UsageError } from "../io.ts";
import { renderCertificates } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools cert [options] FILE | -

Inspects a PEM bundle of certificates (FILE, or "-" for stdin): every certificate, candidate
issuer links and their signatures, possible leaves, an optional hostname check, and findings
grouped by severity. An observation only: not RFC 5280 path validation or a trust decision.
Exits 1 when a finding has severity error, or when a certificate's issuer is neither in the
bundle nor a known root (an intermediate is most likely missing; a warning line says which).

Options:
  -H, --hostname NAME   check NAME against the leaf's DNS SANs
  --leaf-index N        the position of the leaf to check, when there are several
${COMMON_HELP}

Example: nettools cert --hostname example.com chain.pem`;

export const cert: Command = {
  name: "cert",
  summary: "inspect a PEM certificate bundle (issuer links, validity, hostname, findings)",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      hostname: { type: "string", short: "H" },
      "leaf-index": { type: "string" },
    });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    if (positionals.length !== 1) throw new UsageError('cert needs exactly one PEM file, or "-" for stdin');
    const pem = await readSource(positionals[0]!, io, stdinOnce(io));
    // A private key is refused here, before any request, and no line of it is shown (no excerpt).
    const refusal = privateKeyRefusal(pem);
    if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderCertificates);
    const request: RequestOf<"certificateBundle"> = { pem };
    if (values.hostname !== undefined) request.hostname = values.hostname;
    if (values["leaf-index"] !== undefined) {
      if (!/^\d+$/.test(values["leaf-index"])) {
        throw new UsageError(`--leaf-index must be a whole number, not "${values["leaf-index"]}"`);
      }
      request.leafIndex = Number(values["leaf-index"]);
    }
    const result = await runOperation(run, "certificateBundle", request);
    const code = report(result, run, renderCertificates, { source: pem });
    if (!result.ok) return code;
    const missing = missingIntermediates(result.value.findings);
    if (!run.json) {
      for (const finding of missing)
        io.stderr(`${run.err.yellow("warning")}: ${missingIntermediateWarning(finding)}\n`);
    }
    if (missing.length > 0 || result.value.findings.some((finding) => finding.severity === "error"))
      return EXIT.findings;
    return code;
  },
};
