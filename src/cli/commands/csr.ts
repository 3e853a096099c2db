import { readFile } from "node:fs/promises";
import { privateKeyRefusal } from "../../client/certificate-answers.ts";
import type { RequestOf, ResultOf } from "../../contract/operations.ts";
import { COMMON_HELP, makeRun, parse, readSource, stdinOnce } from "../args.ts";
import { prepareCertificateFile } from "../certificate-files.ts";
import { EXIT, UsageError } from "../io.ts";
import { renderFindings, type Style, table } from "../render.ts";
import { report, runOperation } from "../run-operation.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools csr [options] FILE | -

Inspects a certificate signing request (PEM CERTIFICATE REQUEST, FILE or "-" for stdin), as the
API's POST /v1/csr does: its subject, the DNS names and IP addresses it asks for, its key and
publicKeySha256, whether its signature verifies with its own key, and what a CA or a client would
refuse (no subjectAltName, an RSA key under 2048 bits, a SHA-1 signature…), with the clients
that refuse it. With -c, also which certificates hold the request's key.

Options:
  -c, --cert FILE       certificates to compare with the request's key (PEM, DER or PKCS#7;
                        repeatable); a private key in the file is set aside, never read or sent
${COMMON_HELP}

Exit codes for csr: 0 no problem is an error (and, with -c, a certificate holds the key); 1 an
error problem, or no certificate holds the key; 2 invalid input; 3 network or server failure.

Example: nettools csr -c fullchain.pem server.csr`;

type CsrResult = ResultOf<"csr">;

export const csr: Command = {
  name: "csr",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { cert: { type: "string", short: "c", multiple: true } });
    if (values.help) return printHelp(io, HELP);
    const run = makeRun(io, values);
    if (positionals.length !== 1)
      throw new UsageError('csr needs exactly one request file, or "-" for stdin');
    const pem = await readSource(positionals[0]!, io, stdinOnce(io));
    // A key pasted with the request is refused here, before any request, and never shown.
    const refusal = privateKeyRefusal(pem);
    if (refusal !== null) return report({ ok: false, status: 400, error: refusal }, run, renderCsr);
    const request: RequestOf<"csr"> = { pem };
    if (values.cert !== undefined) {
      let certificatePem = "";
      for (const name of values.cert) {
        let bytes: Uint8Array;
        try {
          bytes = new Uint8Array(await readFile(name));
        } catch (error) {
          throw new UsageError(
            `cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`,
          );
        }
        const prepared = prepareCertificateFile(bytes, name);
        for (const notice of prepared.notices) io.stderr(`${run.err.dim("notice")}: ${notice}\n`);
        certificatePem +=
          prepared.pem.endsWith("\n") || prepared.pem === "" ? prepared.pem : `${prepared.pem}\n`;
      }
      request.certificatePem = certificatePem;
    }
    const result = await runOperation(run, "csr", request);
    const code = report(result, run, renderCsr, { source: pem });
    if (!result.ok) return code;
    const failing =
      result.value.problems.some((problem) => problem.severity === "error") ||
      result.value.matchesCertificate === false;
    return failing ? EXIT.findings : code;
  },
};

/** How the clients of CONTRACT §8.1's vocabulary are named in a sentence. */
const CLIENT_NAMES: Readonly<Record<string, string>> = {
  chrome: "Chrome",
  firefox: "Firefox",
  apple: "Apple (Safari, macOS, iOS)",
  go: "Go",
  openssl: "OpenSSL",
};

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
      ["subject", result.subject || "(empty)"],
      ["requested names", names.length ? names.join(", ") : "(none)"],
      ["key", key],
      ["publicKeySha256", result.publicKeySha256],
      ["signature", `${result.signatureAlgorithm}, ${result.signatureValid}`],
    ],
    style,
  );
  const problems = renderFindings(
    result.problems.map((problem) => ({
      ...problem,
      observed:
        problem.clients.length === 0
          ? problem.observed
          : `${problem.observed} Refused by: ${problem.clients.map((client) => CLIENT_NAMES[client] ?? client).join(", ")}.`,
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
