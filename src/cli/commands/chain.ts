import { privateKeyRefusal, REPAIRED_BY_WRITING } from "../../client/certificate-answers.ts";
import type { RequestOf, ResultOf } from "../../contract/operations.ts";
import { withExpiryPercent } from "../../domain/certificates/chain-problems.ts";
import { addRevocationProblems } from "../../local/chain-revocation.ts";
import {
  chainPasses,
  type ExitRules,
  matchedHostnameLine,
  notWrittenReason,
  writtenChainWords,
} from "../../local/chain-verdict.ts";
import type { Deadline } from "../../local/deadline.ts";
import { COMMON_HELP, makeRun, type Run } from "../args.ts";
import { type InputTexts, reportCertificateInputError } from "../certificate-input-errors.ts";
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
import { printChainSeries } from "../chain-prom.ts";
import { command, help, type OptionValues, options } from "../command.ts";
import { certificateDecoder, localCertificateDeps, revocationListDecoder } from "../composition-root.ts";
import { AT_OPTION, atFromOption } from "../instant-option.ts";
import { EXIT, UsageError } from "../io.ts";
import { applyReferenceRoots } from "../reference-roots.ts";
import { renderChain } from "../render-chain.ts";
import { report, runOperation, supplyRoots } from "../run-operation.ts";

export type { ExitRules } from "../../local/chain-verdict.ts";

const HELP = help`Usage: nettools chain [options] FILE… | - | --connect HOST[:PORT]

Builds the chain a server should send from a bundle (CONTRACT §7.1): the path from the server's
certificate to a trust anchor (in the bundle, a shipped root or your own --roots), what is wrong
with the bundle as sent (order, missing, repeated or unneeded certificates, the root, expiry, the
hostname), and the corrected fullchain.pem. With --fix the corrected file is the output, and the
exit status judges that file, so a deploy script can trust it:
  nettools chain --fix -o fullchain.pem cert.pem chain.pem && systemctl reload nginx

Options:
${options(24, {
  "-H, --hostname NAME": "check NAME (a DNS name, or an IPv4/IPv6 address against IP SANs)",
  "--leaf-index N": "the position of the server's certificate, when there are several",
  "--fix": `write the corrected chain (fullchainPem) to stdout, the verdict to stderr;
                        only a complete chain is written (nothing at all otherwise)`,
  "-o, --output FILE": `with --fix: write the corrected chain to FILE instead of stdout, replaced
                        atomically (a failed or incomplete run leaves FILE as it was)`,
  "--partial": "with --fix: write the chain even when it is incomplete (exit 1 still)",
  "--include-root": "append the anchor's certificate to the corrected chain",
  "--expires-within DAYS|N%": `
                        warn about, and exit 1 for, a path member expiring within DAYS (0–3650)
                        or within N % (0–100) of its own lifetime; without it the warning follows
                        each member's lifetime (a third, at most 30 days; half under 10 days),
                        exit unchanged`,
  "--strict": "every warning counts as an error in the exit status (for monitoring)",
  ...AT_OPTION,
  "--format prom": `each FILE judged as its own chain, printed as Prometheus series (the ones
                        CERT_WATCH exports: x509_cert_not_after …, network_tools_chain_status …)
                        for node_exporter's textfile collector; exit status as without it`,
  "--crl FILE": {
    repeatable: `check the path against this CRL (PEM or DER, any size; repeatable):
                        REVOKED (error) for a listed member, CRL_STALE (warning) for a list
                        past its nextUpdate; a list is used only when its issuer's key verifies it`,
  },
})}
${SOURCE_HELP}
${COMMON_HELP}

Exit codes for chain: 0 the chain is complete and no problem is an error; 1 otherwise, or a
member expires within --expires-within DAYS, or (--strict) any warning; 2 invalid input; 3
network or server failure (including --connect), or the --timeout budget reached.
With --fix the status judges the chain written: 0 when it is complete and no problem that remains
in it is an error (WRONG_ORDER, UNNEEDED_CERTIFICATE, DUPLICATE_CERTIFICATE and ROOT_INCLUDED are
repaired by writing; EXPIRED, NOT_YET_VALID, HOSTNAME_MISMATCH are not); 1 otherwise.

Example: nettools chain --fix --hostname www.example.com -o fullchain.pem bundle.pem`;

type ChainResult = ResultOf<"certificateChain">;

type ChainValues = OptionValues<typeof HELP>;

export const chain = command("chain", HELP, async ({ values, positionals }, io) => {
  const run = makeRun(io, values);
  if (values.format !== undefined) return seriesOfFiles(run, values, positionals);
  if (values.output !== undefined && !values.fix) throw new UsageError("-o/--output goes with --fix");
  if (values.partial && !values.fix) throw new UsageError("--partial goes with --fix");
  if (values.fix && run.json) throw new UsageError("--fix and --json cannot be used together");
  const request = requestOptions(values);
  return withinBudget(run, "while searching for the best path", (deadline) =>
    build(run, values, positionals, request, deadline),
  );
});

/**
 * `--format prom` (CONTRACT §10.1): each FILE its own chain, printed as series (src/cli/chain-prom.ts).
 * The options that choose one bundle's leaf, output or repair have no meaning there.
 */
async function seriesOfFiles(run: Run, values: ChainValues, positionals: string[]): Promise<number> {
  if (values.format !== "prom") throw new UsageError(`--format must be prom, not "${values.format}"`);
  for (const option of ["fix", "output", "partial", "leaf-index", "hostname", "connect"] as const)
    if (values[option] !== undefined) throw new UsageError(`--${option} cannot be used with --format prom`);
  if (run.json) throw new UsageError("--json cannot be used with --format prom");
  if (positionals.length === 0 || positionals.includes("-"))
    throw new UsageError("--format prom reads FILE arguments (each file is its own chain), not stdin");
  const request = requestOptions(values);
  const roots = await usableRoots(run, values);
  if (roots !== undefined && "exit" in roots) return roots.exit;
  if (roots !== undefined) request.roots = roots.pem;
  const { pem: _, ...options } = request;
  return printChainSeries(run, positionals, options, (result) => chainExit(result, exitRules(values)));
}

/**
 * The caller's roots this run uses (`--roots`, else NETTOOLS_ROOTS), or the exit code after a bad
 * flag. A default from the environment is judged first, so that a bad one is skipped with a
 * notice, not fatal.
 */
async function usableRoots(
  run: Run,
  values: ChainValues,
): Promise<SuppliedRoots | undefined | { exit: number }> {
  const roots = await readRoots(run, values);
  if (roots === undefined || "exit" in roots) return roots;
  const bad = roots.fromEnvironment ? await supplyRoots(roots.pem, true) : null;
  if (bad === null || bad.ok) return roots;
  run.notice(`NETTOOLS_ROOTS is not used: ${rootsProblem(bad.error, roots.text)}`);
  return undefined;
}

/** `--expires-within N%`: N from 0 to 100, or null for any other text (days, or a mistake). */
function expiryPercent(text: string | undefined): number | null {
  const match = text === undefined ? null : /^(\d{1,3})%$/.exec(text);
  return match === null || Number(match[1]) > 100 ? null : Number(match[1]);
}

/** The request's options from the command line (the PEM, roots and hostname come later). */
function requestOptions(values: ChainValues): RequestOf<"certificateChain"> {
  const request: RequestOf<"certificateChain"> = { pem: "" };
  const leafIndex = leafIndexOf(values["leaf-index"]);
  if (leafIndex !== undefined) request.leafIndex = leafIndex;
  const expiresWithin = values["expires-within"];
  if (expiresWithin !== undefined && expiryPercent(expiresWithin) === null) {
    if (!/^\d+$/.test(expiresWithin) || Number(expiresWithin) > 3650) {
      throw new UsageError(
        `--expires-within must be a whole number of days from 0 to 3650, or a share of the lifetime from 0% to 100%, not "${expiresWithin}"`,
      );
    }
    request.expiryWarningDays = Number(expiresWithin);
  }
  if (values["include-root"]) request.includeRoot = true;
  const at = atFromOption(values.at);
  if (at !== undefined) request.at = at;
  return request;
}

async function build(
  run: Run,
  values: ChainValues,
  positionals: string[],
  request: RequestOf<"certificateChain">,
  deadline: Deadline,
): Promise<number> {
  const io = run.io;
  const texts: InputTexts = {};
  const badReference = applyReferenceRoots(run, values);
  if (badReference !== null) return badReference;
  const roots = await usableRoots(run, values);
  if (roots !== undefined && "exit" in roots) return roots.exit;
  if (roots !== undefined) {
    request.roots = roots.pem;
    texts.roots = roots.text;
  }
  const source = await readCertificateSource(run, positionals, values, "chain", deadline);
  if ("exit" in source) return source.exit;
  request.pem = source.pem;
  if (source.text !== null) texts.pem = source.text;
  const hostname = hostnameFor(values.hostname, source, false).request;
  if (hostname !== undefined) request.hostname = hostname;
  const refusal = privateKeyRefusal(source.pem);
  if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderChain);

  const result = await runOperation(
    run,
    "certificateChain",
    request,
    run.client === null ? deadline : undefined,
  );
  deadline.check();
  if (!result.ok) return reportCertificateInputError(run, result, texts, source.pem);
  if (values.crl !== undefined && values.crl.length > 0) {
    const revocation = await addRevocationProblems(
      result.value,
      values.crl,
      source.pem,
      request.roots,
      { certificates: localCertificateDeps(), revocationLists: revocationListDecoder, files: io.ports.files },
      run.notice,
    );
    if (revocation !== null) {
      io.stderr(`${run.err.red("error")}: ${revocation.unreadable}\n`);
      return EXIT.invalidInput;
    }
  }
  const percent = expiryPercent(values["expires-within"]);
  if (percent !== null) result.value = withExpiryPercent(result.value, percent);
  const rules = exitRules(values);
  if (run.json) {
    report(result, run, renderChain);
    return chainExit(result.value, rules);
  }
  const hostnameLine =
    hostname === undefined
      ? null
      : await matchedHostnameLine(hostname, result.value, source.pem, certificateDecoder());
  const verdict = withLine(renderChain(result.value, values.fix ? run.err : run.out), hostnameLine);
  if (!values.fix) {
    io.stdout(verdict);
    return chainExit(result.value, rules);
  }
  // --fix: the file on stdout (or -o FILE), the verdict and problems on stderr.
  io.stderr(verdict);
  const writable =
    result.value.status === "complete" || (values.partial === true && result.value.path.length > 0);
  if (!writable) {
    io.stderr(
      `${run.err.red("Nothing written")}${values.output ? ` (${values.output} is neither created nor changed)` : ""}: ${notWrittenReason(result.value)}\n`,
    );
    return EXIT.findings;
  }
  // Nothing is written once the budget is spent: the command is reporting that it stopped.
  deadline.check();
  const written = { ...rules, written: true };
  const code = chainExit(result.value, written);
  if (values.output === undefined) io.stdout(result.value.fullchainPem);
  else {
    try {
      await run.io.ports.files.replace(values.output, result.value.fullchainPem);
    } catch (error) {
      io.stderr(`${run.err.red("error")}: cannot write ${values.output}: ${(error as Error).message}\n`);
      return EXIT.failure;
    }
  }
  io.stderr(`${writtenVerdict(result.value, written, code, values.output, run)}\n`);
  return code;
}

/** One line for the written chain: where it went and whether it is fit to deploy (src/local/chain-verdict.ts's words). */
function writtenVerdict(
  result: ChainResult,
  rules: ExitRules,
  code: number,
  output: string | undefined,
  run: Run,
): string {
  const { where, size, detail } = writtenChainWords(result, rules, code === EXIT.ok, output);
  if (code === EXIT.ok)
    return `${run.err.green("Deployable")}: ${where.toLowerCase()} (${size}), complete with no error left${detail}.`;
  return `${where} (${size}), ${run.err.red("not fit to deploy as is")}: ${detail}.`;
}

/** chain's exit rules as its options set them, for the chain as checked (not yet written). */
function exitRules(values: ChainValues): ExitRules {
  return {
    strict: values.strict === true,
    expiringCounts: values["expires-within"] !== undefined,
    written: false,
    repairedByWriting: REPAIRED_BY_WRITING,
  };
}

/** chain's exit status (CONTRACT §7.1): 0 when the chain passes under `rules` (src/local/chain-verdict.ts), 1 otherwise. */
export function chainExit(result: ChainResult, rules: ExitRules): number {
  return chainPasses(result, rules) ? EXIT.ok : EXIT.findings;
}

/** `text` with `line` after its first line (the verdict). */
function withLine(text: string, line: string | null): string {
  if (line === null) return text;
  const end = text.indexOf("\n") + 1;
  return `${text.slice(0, end)}${line}\n${text.slice(end)}`;
}
