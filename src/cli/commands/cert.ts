import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
} from "../../client/certificate-answers.ts";
import type { RequestOf } from "../../contract/operations.ts";
import { COMMON_HELP, makeRun, parse } from "../args.ts";
import {
  hostnameFor,
  readCertificateSource,
  readRoots,
  SOURCE_HELP,
  SOURCE_OPTIONS,
} from "../certificate-source.ts";
import { EXIT, UsageError } from "../io.ts";
import { renderCertificates } from "../render.ts";
import { report, runOperation, supplyRoots } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools cert [options] FILE | - | --connect HOST[:PORT]

Inspects a PEM bundle of certificates (FILE, or "-" for stdin): every certificate, candidate
issuer links and their signatures, possible leaves, an optional hostname check, and findings
grouped by severity. An observation only: not RFC 5280 path validation or a trust decision.
Exits 1 when a finding has severity error, or when a certificate's issuer is neither in the
bundle nor a known root (an intermediate is most likely missing; a warning line says which).

Options:
  -H, --hostname NAME   check NAME against the leaf's DNS SANs
  --leaf-index N        the position of the leaf to check, when there are several
${SOURCE_HELP}
                        (--roots runs in this process only: the API's bundle operation has no
                        roots field; with --connect to an IP address the hostname check is skipped)
${COMMON_HELP}

Example: nettools cert --hostname example.com chain.pem`;

export const cert: Command = {
  name: "cert",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      hostname: { type: "string", short: "H" },
      "leaf-index": { type: "string" },
      ...SOURCE_OPTIONS,
    });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    const roots = await readRoots(run, values);
    if (roots !== undefined) {
      if (run.client !== null) {
        throw new UsageError(
          "--roots (or NETTOOLS_ROOTS) works in this process only: the API's bundle operation takes no roots",
        );
      }
      const bad = await supplyRoots(roots);
      if (bad !== null) return report(bad, run, renderCertificates, { source: roots });
    }
    const source = await readCertificateSource(run, positionals, values, "cert");
    if ("exit" in source) return source.exit;
    const pem = source.pem;
    // A private key is refused here, before any request, and no line of it is shown (no excerpt).
    const refusal = privateKeyRefusal(pem);
    if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderCertificates);
    const request: RequestOf<"certificateBundle"> = { pem };
    const hostname = hostnameFor(values.hostname, source, false);
    if (hostname !== undefined) request.hostname = hostname;
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
