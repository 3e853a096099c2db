/**
 * `nettools csr`'s inputs read on the user's machine (CONTRACT §8.2): the request file (or stdin)
 * and the certificate files to compare with its key, each judged so that no byte of a private key
 * reaches an output, an error or a server (src/local/key-safe-inputs.ts): binary input is named by
 * its offset, a DER request gets the command that converts it, and a key pasted with the request
 * is refused before anything is sent. Nothing printed: the command says what this returns.
 */
import { privateKeyIssues } from "../domain/certificates/pem.ts";
import type { Issue } from "../domain/errors.ts";
import { CertificateBundleText } from "./certificate-files.ts";
import { INPUT_LIMITS } from "./input-limits.ts";
import { keyMaterialIssues } from "./key-material.ts";
import {
  addCertificateFile,
  binaryProblem,
  inputBytes,
  sourceName,
  stdinBytesOnce,
  textOf,
} from "./key-safe-inputs.ts";
import type { LocalInputs, Notify } from "./local-inputs.ts";

const DER_REQUEST_ADVICE =
  "a DER request converts with openssl req -inform DER -in request.der -out request.pem";

/** The texts the csr request's fields were made of, to show an issue at its file and line. */
export interface RequestTexts {
  pem: CertificateBundleText;
  certificatePem: CertificateBundleText;
}

/**
 * The request's fields (`pem`, and `certificatePem` when certificate files are given) with the
 * texts they came from; or one line (binary input, a DER key, a certificate file that is not one);
 * or the issues of private-key material in the request's text (an intact key block's, else key
 * material found by content), never the key itself.
 */
export type RequestInputs =
  | { ok: true; request: { pem: string; certificatePem?: string }; texts: RequestTexts }
  | { ok: false; message: string }
  | { ok: false; keyIssues: Issue[] };

/** Reads the request file `name` and the certificate files; the certificate files' notices go to `notify`. */
export async function readRequestInputs(
  io: LocalInputs,
  name: string,
  certFiles: readonly string[],
  notify: Notify,
): Promise<RequestInputs> {
  const stdin = stdinBytesOnce(io);
  const source = sourceName(name);
  const bytes = await inputBytes(io, name, stdin, INPUT_LIMITS.request);
  const binary = binaryProblem(bytes, source, "a PEM certificate request", DER_REQUEST_ADVICE);
  if (binary !== null) return { ok: false, message: binary };
  const text = textOf(bytes);
  const privateKeys = privateKeyIssues(text);
  const keyIssues = privateKeys.length > 0 ? privateKeys : keyMaterialIssues(text);
  if (keyIssues.length > 0) return { ok: false, keyIssues };
  const texts = { pem: new CertificateBundleText(), certificatePem: new CertificateBundleText() };
  texts.pem.addText(text, source);
  const request: { pem: string; certificatePem?: string } = { pem: texts.pem.pem };
  if (certFiles.length > 0) {
    for (const certFile of certFiles) {
      const problem = addCertificateFile(
        texts.certificatePem,
        await inputBytes(io, certFile, stdin, INPUT_LIMITS.certificates),
        sourceName(certFile),
      );
      if (problem !== null) return { ok: false, message: problem };
    }
    for (const notice of texts.certificatePem.notices) notify(notice);
    request.certificatePem = texts.certificatePem.pem;
  }
  return { ok: true, request, texts };
}
