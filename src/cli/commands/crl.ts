import {
  parseInstant,
  REASON_WORDS,
  type RevocationListResult,
} from "../../domain/certificates/revocation.ts";
import type { Issue } from "../../domain/errors.ts";
import type { CertificateBundleText } from "../../local/certificate-files.ts";
import {
  judgeRevocationListFiles,
  type RevocationListEntry,
  revocationListPasses,
} from "../../local/revocation-list-check.ts";
import { COMMON_HELP, makeRun, type Run } from "../args.ts";
import { renderCertificateInputError } from "../certificate-input-errors.ts";
import { command, help, options } from "../command.ts";
import { localCertificateDeps, revocationListDecoder } from "../composition-root.ts";
import { atFromOption } from "../instant-option.ts";
import { EXIT, UsageError } from "../io.ts";
import { type Style, table } from "../render.ts";

const HELP = help`Usage: nettools crl [options] FILE

Reads a certificate revocation list (PEM X509 CRL or DER, of any size: a CA's full list can be
megabytes) on this machine, as the API's POST /v1/crl does for small ones: its issuer, dates,
number and size, whether the CA's key verifies it, whether it is stale, and whether each given
certificate is listed. Nothing is fetched from the network, and no server is contacted.

Options:
${options(24, {
  "--issuer FILE": `the CA certificate that signed the list (PEM or DER; in a file of several,
                        the one whose subject is the list's issuer); its key checks the signature`,
  "-c, --cert FILE": {
    repeatable: 'certificates to look up (PEM, DER or PKCS#7; repeatable, "-" for stdin)',
  },
  "--at TIME": "judge staleness at TIME: RFC 3339, or @SECONDS since the epoch",
  "--entries": "also list every revoked serial, its date, reason and invalidity date",
})}
${COMMON_HELP}

Exit codes for crl: 0 nothing wrong; 1 a given certificate is revoked, the signature fails, or
the list is stale; 2 invalid input.

Example: nettools crl --issuer ca.pem -c server.pem ca.crl`;

export const crl = command("crl", HELP, async ({ values, positionals }, io) => {
  const run = makeRun(io, values, { inProcessOnly: "crl reads CRLs of any size on this machine" });
  if (positionals.length !== 1) throw new UsageError("crl needs exactly one CRL file");
  const at = values.at === undefined ? new Date() : parseAt(values.at);
  if (at === null) {
    throw new UsageError(`--at must be RFC 3339 (2026-12-01T00:00:00Z) or @SECONDS, not "${values.at}"`);
  }
  const judged = await judgeRevocationListFiles(
    io,
    {
      list: positionals[0]!,
      certificates: values.cert ?? [],
      issuer: values.issuer,
      at,
      entries: values.entries === true,
    },
    { certificates: localCertificateDeps, revocationLists: revocationListDecoder },
  );
  if (!judged.ok) return "message" in judged ? inputError(run, judged.message) : unreadable(run, judged);
  const { result, entries } = judged;
  if (run.json) {
    io.stdout(`${JSON.stringify(entries === null ? result : { ...result, revokedCertificates: entries })}\n`);
  } else {
    io.stdout(renderRevocationList(result, entries, run.out, values.issuer !== undefined));
  }
  return revocationListPasses(result) ? EXIT.ok : EXIT.findings;
});

/** `--at`: RFC 3339 (CONTRACT §9.1) or `@SECONDS` as `openssl verify -attime` and `date -d @N` take it. */
export function parseAt(text: string): Date | null {
  try {
    const at = atFromOption(text);
    return at === undefined ? null : parseInstant(at);
  } catch {
    return null;
  }
}

/** Certificate files that cannot be read as certificates: their issues at their places (--json: the envelope). */
function unreadable(
  run: Run,
  read: { files: readonly string[]; issues: Issue[]; text: CertificateBundleText },
): number {
  const error = {
    code: "INVALID_INPUT",
    message: `${read.files.join(", ")}: not readable as certificates`,
    issues: read.issues.map((issue) => ({ ...issue, path: ["certificatePem"] })),
  };
  if (run.json) run.io.stdout(`${JSON.stringify({ error })}\n`);
  else run.io.stderr(renderCertificateInputError(error, run.err, { certificatePem: read.text }));
  return EXIT.invalidInput;
}

/** One line (never a byte of the input), exit 2; the error envelope with --json. */
function inputError(run: Run, message: string): number {
  if (run.json) run.io.stdout(`${JSON.stringify({ error: { code: "INVALID_INPUT", message } })}\n`);
  else run.io.stderr(`${run.err.red(run.err.bold("error"))}: ${message}\n`);
  return EXIT.invalidInput;
}

/** The list's facts, the lookups, and (with --entries) every entry in `openssl crl -text`'s words. */
export function renderRevocationList(
  result: RevocationListResult,
  entries: readonly RevocationListEntry[] | null,
  style: Style,
  issuerGiven: boolean,
): string {
  const signature =
    result.signature === "verified"
      ? style.green("verified")
      : result.signature === "failed"
        ? style.red("FAILED: the issuer's key does not verify this list")
        : `not checked${issuerGiven ? "" : " (give --issuer CA.pem)"}`;
  const fields = table(
    null,
    [
      ["issuer", result.issuer || "(empty)"],
      ["thisUpdate", result.thisUpdate],
      ["nextUpdate", result.nextUpdate ?? "(none)"],
      ["crlNumber", result.crlNumber ?? "(none)"],
      ["signature", `${result.signatureAlgorithm}, ${signature}`],
      ["entries", String(result.entries)],
      ["stale", result.stale ? style.red(`yes: nextUpdate is before ${result.evaluatedAt}`) : "no"],
    ],
    style,
  );
  const sections = [`${style.bold("Revocation list")}\n${fields}`];
  if (result.certificates.length > 0) {
    const lines = result.certificates.map((c) => {
      if (c.revoked) {
        const reason =
          c.reason === null
            ? "no reason given"
            : (REASON_WORDS[c.reason as keyof typeof REASON_WORDS] ?? c.reason);
        return `  #${c.index} serial ${c.serialNumber}: ${style.red("REVOKED")} on ${c.revocationDate} (${reason})\n`;
      }
      return `  #${c.index} serial ${c.serialNumber}: ${c.reason === null ? style.green("not revoked") : `not covered: ${c.reason}`}\n`;
    });
    sections.push(`${style.bold("Certificates")}\n${lines.join("")}`);
  }
  if (entries !== null) {
    const rows = entries.map((e) => [
      e.serialNumber,
      e.revocationDate,
      e.reason === null ? "-" : REASON_WORDS[e.reason as keyof typeof REASON_WORDS],
      e.invalidityDate ?? "-",
    ]);
    sections.push(
      `${style.bold("Revoked certificates")}\n${rows.length === 0 ? "  (none)\n" : table(["SERIAL", "REVOKED", "REASON", "INVALID SINCE"], rows, style, "  ")}`,
    );
  }
  return sections.join("\n");
}
