import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
} from "../../client/certificate-answers.ts";
import type { RequestOf } from "../../contract/operations.ts";
import type { Deadline } from "../../local/deadline.ts";
import {
  bundleAddressAnswer,
  bundleNameWords,
  type HostnameAnswer,
  readIdentity,
} from "../../local/hostname-answer.ts";
import { makeRun, type Run } from "../args.ts";
import { renderCertificateInputError, reportCertificateInputError } from "../certificate-input-errors.ts";
import {
  hostnameFor,
  leafIndexOf,
  readCertificateSource,
  readRoots,
  rootsProblem,
  SOURCE_HELP,
  type SuppliedRoots,
  withinBudget,
} from "../certificate-source.ts";
import { command, help, type OptionValues, options } from "../command.ts";
import { helpFooter } from "../common-help.ts";
import { AT_OPTION, atFromOption } from "../instant-option.ts";
import { EXIT } from "../io.ts";
import { applyReferenceRoots } from "../reference-roots.ts";
import { renderCertificates } from "../render.ts";
import { report, runOperation, supplyRoots } from "../run-operation.ts";

const HELP = help`Usage: nettools cert [options] FILE… | - | --connect HOST[:PORT]

Inspects a bundle of certificates (one or more FILEs read as one bundle, or "-" for stdin):
every certificate, candidate issuer links and their signatures, possible leaves, an optional
hostname check, and findings grouped by severity. An observation only: not RFC 5280 path
validation or a trust decision. Exits 1 when a finding has severity error, when the hostname is
not matched, or when a certificate's issuer is neither in the bundle nor a known root (an
intermediate is most likely missing; a warning line says which).

Options:
${options(24, {
  "-H, --hostname NAME": `check NAME against the leaf's DNS SANs; an IPv4 or IPv6 address is
                        checked here against the leaf's IP SANs (the API's bundle operation
                        takes DNS names only)`,
  "--leaf-index N": "the position of the leaf to check, when there are several",
  ...AT_OPTION,
})}
${SOURCE_HELP}
                        (--roots runs in this process only: the API's bundle operation has no
                        roots field, so NETTOOLS_ROOTS is skipped with --server)
${helpFooter("0 no finding is an error; 1 a finding of severity error, the hostname not matched, or an\nissuer neither in the bundle nor a known root")}

Example: nettools cert --hostname example.com cert.pem chain.pem`;

/** Why `cert` cannot send roots to a server. */
const ROOTS_IN_PROCESS_ONLY = "--roots works in this process only: the API's bundle operation takes no roots";

export const cert = command("cert", HELP, async ({ values, positionals }, io) => {
  const run = makeRun(io, values, {
    inProcessOnly: values.roots === undefined ? undefined : ROOTS_IN_PROCESS_ONLY,
  });
  const leafIndex = leafIndexOf(values["leaf-index"]);
  const at = atFromOption(values.at);
  return withinBudget(run, "before the findings were ready", (deadline) =>
    inspect(run, values, positionals, deadline, { leafIndex, at }),
  );
});

type CertValues = OptionValues<typeof HELP>;

async function inspect(
  run: Run,
  values: CertValues,
  positionals: string[],
  deadline: Deadline,
  { leafIndex, at }: { leafIndex: number | undefined; at: string | undefined },
): Promise<number> {
  const io = run.io;
  const badReference = applyReferenceRoots(run, values);
  if (badReference !== null) return badReference;
  const roots = await readRoots(run, values, run.client === null ? undefined : SERVER_TAKES_NO_ROOTS);
  if (roots !== undefined && "exit" in roots) return roots.exit;
  if (roots !== undefined && !(await applyRoots(run, roots))) return EXIT.invalidInput;
  const source = await readCertificateSource(run, positionals, values, "cert", deadline);
  if ("exit" in source) return source.exit;
  const pem = source.pem;
  // A private key is refused here, before any request, and no line of it is shown (no excerpt).
  const refusal = privateKeyRefusal(pem);
  if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderCertificates);
  const request: RequestOf<"certificateBundle"> = { pem };
  const hostname = hostnameFor(values.hostname, source, true);
  if (hostname.request !== undefined) request.hostname = hostname.request;
  const address = hostname.address === undefined ? null : readIdentity(hostname.address);
  if (address?.issue) {
    io.stderr(`${run.err.red(run.err.bold("error"))} ${run.err.bold("INVALID_INPUT")}: ${address.issue}\n`);
    return EXIT.invalidInput;
  }
  if (leafIndex !== undefined) request.leafIndex = leafIndex;
  if (at !== undefined) request.at = at;

  const result = await runOperation(
    run,
    "certificateBundle",
    request,
    run.client === null ? deadline : undefined,
  );
  deadline.check();
  if (!result.ok)
    return reportCertificateInputError(run, result, source.text ? { pem: source.text } : {}, source.pem);
  const answer = address?.identity ? bundleAddressAnswer(address.identity, result.value) : null;
  // The address checked here is the result's `hostname`, in its own shape (CONTRACT §9.6).
  if (answer !== null) result.value.hostname = answer.hostname;
  const words = answer?.words ?? bundleNameWords(result.value);
  const code = report(result, run, (value, style) => renderCertificates(value, style, words));
  const missing = missingIntermediates(result.value.findings);
  if (!run.json) {
    for (const finding of missing)
      io.stderr(`${run.err.yellow("warning")}: ${missingIntermediateWarning(finding)}\n`);
  }
  if (answer !== null && (run.json || answer.matched === false)) io.stderr(addressLine(run, answer));
  if (
    missing.length > 0 ||
    answer?.matched === false ||
    result.value.findings.some((finding) => finding.severity === "error")
  )
    return EXIT.findings;
  return code;
}

/** Why NETTOOLS_ROOTS cannot be used with a server. */
const SERVER_TAKES_NO_ROOTS =
  "the server's certificate-bundle operation takes no roots; cert uses them only when it runs in this process";

/** Applies the roots to this process's runs; false after reporting a bad --roots file. */
async function applyRoots(run: Run, roots: SuppliedRoots): Promise<boolean> {
  const bad = await supplyRoots(roots.pem);
  if (bad === null || bad.ok) return true;
  if (roots.fromEnvironment) {
    run.notice(`NETTOOLS_ROOTS is not used: ${rootsProblem(bad.error, roots.text)}`);
    return true;
  }
  if (run.json) report(bad, run, renderCertificates);
  else run.io.stderr(renderCertificateInputError(bad.error, run.err, { roots: roots.text }));
  return false;
}

/** `hostname 10.0.0.5: matched (IP SAN), checked in this process` for stderr. */
function addressLine(run: Run, answer: HostnameAnswer): string {
  const paint = answer.matched === false ? run.err.red : answer.matched ? run.err.green : run.err.yellow;
  return `${paint("hostname")} ${answer.words}, checked in this process against the leaf's IP SANs\n`;
}
