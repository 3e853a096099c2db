/**
 * An invalid certificate input, shown where the user can find it (CONTRACT §7.6): the operation
 * locates a PEM issue by its line in the text it was given, which for the CLI is several files
 * (`cert.pem chain.pem`), a DER or PKCS#7 file turned into PEM, or the `--roots` files; each issue
 * is shown at its file and line (`chain.pem:12`, `roots/ca.pem:3`), with the line itself when it
 * is the user's own text (never for converted input, so binary never reaches the terminal).
 */
import type { ApiResult, ErrorIssue } from "../client/index.ts";
import type { CertificateBundleText } from "../local/certificate-files.ts";
import type { Run } from "./args.ts";
import { excerpt, type Style } from "./render.ts";
import { failureExit, report } from "./run-operation.ts";

/** The texts the request's fields were made of, by field (`pem`, `roots`, csr's `certificatePem`). */
export type InputTexts = Partial<Record<"pem" | "roots" | "certificatePem", CertificateBundleText>>;

/** The error with each located issue at its file and line. */
export function renderCertificateInputError(
  error: { code: string; message: string; issues?: readonly ErrorIssue[] | undefined },
  style: Style,
  texts: InputTexts,
): string {
  let out = `${style.red(style.bold("error"))} ${style.bold(error.code)}: ${error.message}\n`;
  for (const issue of error.issues ?? []) {
    const field = issue.path?.[0];
    const text =
      field === "pem" || field === "roots" || field === "certificatePem" ? texts[field] : undefined;
    const location = issue.location;
    if (location === undefined || text === undefined) {
      const path = issue.path?.length ? `${issue.path.join(".")}: ` : "";
      out += `  - ${path}${issue.message}\n`;
      continue;
    }
    const origin = text.origin(location.line);
    const place = text.place(location.line) ?? `${field} line ${location.line}`;
    out += `  - ${place}: ${issue.message}\n`;
    if (origin?.line != null) out += excerpt(text.pem, location, style, origin.line - location.line);
  }
  return out;
}

/**
 * Prints a refused certificate operation, returning its exit code: each issue at its file and line,
 * or with --json (or when nothing was read from a file) as `report` prints it, `pem`'s lines shown.
 */
export function reportCertificateInputError(
  run: Run,
  result: Exclude<ApiResult<unknown>, { ok: true }>,
  texts: InputTexts,
  pem?: string,
): number {
  if (run.json || Object.values(texts).every((text) => text === undefined))
    return report(result, run, () => "", pem === undefined ? {} : { source: pem });
  run.io.stderr(renderCertificateInputError(result.error, run.err, texts));
  return failureExit(result);
}
