import type { ServerError } from "../../client/index.ts";
import type { ResultOf } from "../../contract/operations.ts";
import { type Issue, invalidInput } from "../../domain/errors.ts";
import { withRefusingClients } from "../../local/client-names.ts";
import { readRequestInputs } from "../../local/request-inputs.ts";
import { escapeForTerminal } from "../../local/terminal-text.ts";
import { COMMON_HELP, makeRun, type Run } from "../args.ts";
import { reportCertificateInputError } from "../certificate-input-errors.ts";
import { command, help, options } from "../command.ts";
import { EXIT, stdinOnlyOnce, UsageError } from "../io.ts";
import { renderFindings, type Style, table } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";

const HELP = help`Usage: nettools csr [options] FILE | -

Inspects a certificate signing request (PEM CERTIFICATE REQUEST, FILE or "-" for stdin), as the
API's POST /v1/csr does: its subject, the DNS names and IP addresses it asks for, its key and
publicKeySha256, whether its signature verifies with its own key, and what a CA or a client would
refuse (no subjectAltName, an RSA key under 2048 bits, a SHA-1 signature…), with the clients
that refuse it. With -c, also which certificates hold the request's key.

Options:
${options(24, {
  "-c, --cert FILE": {
    repeatable: `certificates to compare with the request's key (PEM, DER or PKCS#7;
                        repeatable, "-" for stdin); a private key in the file is set aside,
                        never read or sent`,
  },
})}
${COMMON_HELP}

Exit codes for csr: 0 no problem is an error (and, with -c, a certificate holds the key); 1 an
error problem, or no certificate holds the key; 2 invalid input; 3 network or server failure.

Example: nettools csr -c fullchain.pem server.csr`;

type CsrResult = ResultOf<"csr">;

export const csr = command("csr", HELP, async ({ values, positionals }, io) => {
  const run = makeRun(io, values);
  if (positionals.length !== 1) throw new UsageError('csr needs exactly one request file, or "-" for stdin');
  const certFiles = values.cert ?? [];
  stdinOnlyOnce([positionals[0], ...certFiles]);
  const read = await readRequestInputs(io, positionals[0]!, certFiles, run.notice);
  // A key pasted with the request is refused here, before any request, and never shown.
  if (!read.ok && "keyIssues" in read)
    return report({ ok: false, status: 400, error: keyRefusal(read.keyIssues) }, run, renderCsr);
  if (!read.ok) return inputError(run, read.message);
  const { request, texts } = read;
  const result = await runOperation(run, "csr", request);
  if (!result.ok) return reportCertificateInputError(run, result, texts);
  const code = report(result, run, renderCsr);
  const failing =
    result.value.problems.some((problem) => problem.severity === "error") ||
    result.value.matchesCertificate === false;
  return failing ? EXIT.findings : code;
});

/** An input that cannot be read: one line (never any byte of it), exit 2; the envelope with --json. */
function inputError(run: Run, message: string): number {
  return report({ ok: false, status: 400, error: { code: "INVALID_INPUT", message } }, run, renderCsr);
}

/** The refusal of private-key material in the request's text: its issues located, no line of it shown. */
function keyRefusal(issues: Issue[]): ServerError {
  return {
    code: "INVALID_INPUT",
    message: invalidInput(issues).message,
    issues: issues.map((issue) => ({ message: issue.message, path: issue.path, location: issue.location! })),
  };
}

/** The request's fields, its problems (with the clients that refuse each), and the key match. */
export function renderCsr(result: CsrResult, style: Style): string {
  const names = [
    ...result.subjectAltNames.dns.map((name) => `DNS:${name}`),
    ...result.subjectAltNames.ip.map((address) => `IP:${address}`),
  ];
  const key = [result.keyType, result.keyCurve, result.keyBits === null ? null : `${result.keyBits} bits`]
    .filter((part) => part !== null)
    .join(" ");
  const fields = table(
    null,
    [
      ["subject", escapeForTerminal(result.subject) || "(empty)"],
      ["requested names", names.length ? escapeForTerminal(names.join(", ")) : "(none)"],
      ["key", escapeForTerminal(key)],
      ["publicKeySha256", escapeForTerminal(result.publicKeySha256)],
      ["signature", escapeForTerminal(`${result.signatureAlgorithm}, ${result.signatureValid}`)],
    ],
    style,
  );
  const problems = renderFindings(
    result.problems.map((problem) => ({
      ...problem,
      observed: withRefusingClients(problem.clients, problem.observed),
    })),
    style,
    "No problems.",
  );
  const sections = [`${style.bold("Request")}\n${fields}`, `${style.bold("Problems")}\n${problems}`];
  if (result.matchingCertificateIndexes !== null) {
    const holders = result.matchingCertificateIndexes.map((index) => `#${index}`);
    sections.push(
      holders.length === 0
        ? `${style.red("No certificate holds the request's key.")}\n`
        : `${style.green(`The request's key is in certificate ${holders.join(", ")}.`)}\n`,
    );
  }
  return sections.join("\n");
}
