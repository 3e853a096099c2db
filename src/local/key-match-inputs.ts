/**
 * `nettools key-match` as a use case of the user's machine (CONTRACT §8.2): its inputs read (each
 * a file or stdin, no byte of a key ever in a message), the key's public half taken through the
 * PublicKeyReader port, and the comparison by the SHA-256 of each SubjectPublicKeyInfo
 * (src/local/key-match.ts, which the page's key panel uses too). The command (src/cli/commands/
 * key-match.ts) parses the options and prints the answer in {@link keyMatchWords}'s words.
 */
import { readCertificates, readCertificationRequest } from "../domain/certificates/csr.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import type { CertificationRequestData } from "../domain/certificates/request-model.ts";
import { certificateName, listSome } from "../domain/certificates/wording.ts";
import type { Issue } from "../domain/errors.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { CertificateDecoder } from "../domain/ports.ts";
import { binaryOffset, CertificateBundleText } from "./certificate-files.ts";
import { INPUT_LIMITS } from "./input-limits.ts";
import { certificatesHolding, keyToCompare, publicKeySha256 } from "./key-match.ts";
import {
  addCertificateFile,
  binaryProblem,
  derKeyMessage,
  inputBytes,
  sourceName,
  stdinBytesOnce,
  textOf,
} from "./key-safe-inputs.ts";
import type { LocalInputs, Notify } from "./local-inputs.ts";
import { readPassphrase } from "./passin.ts";
import { looksLikePkcs12, readPkcs12Input } from "./pkcs12-input.ts";
import type { PublicKeyReader } from "./ports.ts";
import { isPrivateKeyBlock, looksLikeDerKey, type PemBlockText, pemBlocksOf } from "./private-keys.ts";

/** The files of one comparison, as `-c`, `-k`, `-r` and `--passin` name them. */
export interface KeyMatchFiles {
  certFiles: readonly string[];
  keyFile: string | undefined;
  csrFile: string | undefined;
  passin: string | undefined;
}

/** What one run compares: the key's public half, the request, the certificates (each optional). */
export interface KeyMatchInputs {
  key: { spki: Uint8Array; origin: string } | null;
  csr: CertificationRequestData | null;
  certificates: CertificateData[];
  /** -c was given (it may still hold no certificate: then an issue says so). */
  certificatesGiven: boolean;
}

/** The `--json` answer (CONTRACT §8.2), field order as specified. */
export interface KeyMatchAnswer {
  match: boolean;
  key: { keyType: string; keyBits: number | null; publicKeySha256: string } | null;
  csr: { subject: string; publicKeySha256: string } | null;
  certificates: { index: number; subject: string; publicKeySha256: string }[];
  matchingCertificateIndexes: number[];
}

/** An input error: one sentence, or located issues of a file (never any key byte). */
export class InputProblem extends Error {
  constructor(
    message: string,
    readonly issues: { message: string }[] = [],
  ) {
    super(message);
  }
}

/**
 * Reads the inputs of one comparison: the -c files (PEM, DER, PKCS#7 or PKCS#12; a key in them is
 * the key input when no -k is given), the -k key's public half (through the PublicKeyReader port,
 * within `budget`) and the -r request. A problem is an {@link InputProblem} naming the input and
 * its line, a spent budget {@link Stopped}; `notify` hears that a key of the -c files is set aside.
 */
export async function readKeyMatchInputs(
  io: LocalInputs,
  files: KeyMatchFiles,
  decoder: CertificateDecoder,
  budget: Budget,
  notify: Notify,
): Promise<KeyMatchInputs> {
  const { certFiles, keyFile, csrFile, passin } = files;
  const stdin = stdinBytesOnce(io);
  const passphrase = async () => (passin === undefined ? undefined : readPassphrase(passin, io));

  // Certificates (PEM, DER or PKCS#7), and the keys found beside them in PEM.
  const bundle = new CertificateBundleText();
  const keysInCertFiles: { block: PemBlockText; origin: string }[] = [];
  for (const name of certFiles) {
    const bytes = await inputBytes(io, name, stdin, INPUT_LIMITS.certificates);
    const origin = sourceName(name);
    if (looksLikePkcs12(bytes)) {
      // CONTRACT §10.3: its certificates join the -c bundle in file order; its key is the key input.
      const read = await readPkcs12Input(bytes, origin, passin, true, io);
      if (!read.ok) throw new InputProblem(read.message);
      bundle.addText(read.certificatesPem, `${origin} (PKCS#12)`);
      for (const key of read.keysPem) keysInCertFiles.push({ block: pemBlocksOf(key)[0]!, origin });
      continue;
    }
    if (looksLikeDerKey(bytes)) throw new InputProblem(derKeyMessage(origin));
    if (binaryOffset(bytes) >= 0) {
      const problem = addCertificateFile(bundle, bytes, origin);
      if (problem !== null) throw new InputProblem(problem);
      continue;
    }
    const text = textOf(bytes);
    const blocks = pemBlocksOf(text);
    for (const block of blocks.filter(isPrivateKeyBlock)) keysInCertFiles.push({ block, origin });
    // Keys and their EC parameters are not certificates: blanked, so lines stay the file's.
    bundle.addText(
      blank(
        text,
        blocks.filter((block) => isPrivateKeyBlock(block) || block.label === "EC PARAMETERS"),
      ),
      origin,
    );
  }
  const certificates: CertificateData[] = [];
  if (certFiles.length > 0) {
    const read = await readCertificates(bundle.pem, "certificatePem", decoder, LOCAL_CERTIFICATE_LIMITS);
    if (read.issues.length > 0) {
      throw problemIn(read.issues, (line) => bundle.place(line) ?? `line ${line}`, "the -c files");
    }
    certificates.push(...read.certificates);
  }

  // The key: -k, else the one key of the -c files (src/local/key-match.ts).
  let key: KeyMatchInputs["key"] = null;
  const keyOrigin = keyFile === undefined ? null : sourceName(keyFile);
  let given: { block: PemBlockText; origin: string }[] | null = null;
  if (keyFile !== undefined && keyOrigin !== null) {
    const origin = keyOrigin;
    const bytes = await inputBytes(io, keyFile, stdin, INPUT_LIMITS.key);
    const pkcs12 = looksLikePkcs12(bytes) ? await readPkcs12Input(bytes, origin, passin, true, io) : null;
    if (pkcs12 !== null && !pkcs12.ok) throw new InputProblem(pkcs12.message);
    if (pkcs12 === null && looksLikeDerKey(bytes)) throw new InputProblem(derKeyMessage(origin));
    const binary =
      pkcs12 === null ? binaryProblem(bytes, origin, "a PEM private key", "key-match reads PEM keys") : null;
    if (binary !== null) throw new InputProblem(binary);
    const blocks = pkcs12?.ok
      ? pkcs12.keysPem.flatMap((key) => pemBlocksOf(key))
      : pemBlocksOf(textOf(bytes)).filter(isPrivateKeyBlock);
    given = blocks.map((block) => ({ block, origin }));
  }
  const chosen = keyToCompare(given, keysInCertFiles);
  if (!chosen.ok) {
    throw new InputProblem(
      chosen.from === "certificates"
        ? `the -c files hold ${chosen.count} private keys; give the one to compare with -k`
        : chosen.count === 0
          ? `${keyOrigin} holds no PEM private key (a complete BEGIN … PRIVATE KEY / END block)`
          : `${keyOrigin} holds ${chosen.count} private keys; -k takes one`,
    );
  }
  if (chosen.key !== null) {
    const { block, origin } = chosen.key;
    key = await publicKey(io.ports.publicKeys, block, origin, await passphrase(), budget);
    if (chosen.setAside) {
      notify(`the private key in ${keysInCertFiles[0]!.origin} is ignored: -k ${origin} is the key compared`);
    }
  }

  let csr: CertificationRequestData | null = null;
  if (csrFile !== undefined) {
    const origin = sourceName(csrFile);
    const bytes = await inputBytes(io, csrFile, stdin, INPUT_LIMITS.request);
    const binary = binaryProblem(bytes, origin, "a PEM certificate request", DER_REQUEST_ADVICE);
    if (binary !== null) throw new InputProblem(binary);
    const read = await readCertificationRequest(textOf(bytes), decoder, LOCAL_CERTIFICATE_LIMITS);
    if (read.request === null || read.issues.length > 0) {
      throw problemIn(read.issues, (line) => `${origin}:${line}`, origin);
    }
    csr = read.request;
  }
  return { key, csr, certificates, certificatesGiven: certFiles.length > 0 };
}

const DER_REQUEST_ADVICE =
  "a DER request converts with openssl req -inform DER -in request.der -out request.pem";

/** The key derivation ran out of the command's time budget (`--timeout`): exit 3. */
export class Stopped extends Error {}

/** The command's time budget (`--timeout`): its length and its end on `performance.now()`'s clock. */
export interface Budget {
  seconds: number;
  endsAt: number;
}

/**
 * The key's public half, through the PublicKeyReader port (node:crypto in the CLI). An encrypted
 * PKCS#8 key is decrypted first, its cost checked and its derivation bounded by the command's
 * budget (src/adapters/keys-node/key-decryption.ts).
 */
async function publicKey(
  publicKeys: PublicKeyReader,
  block: PemBlockText,
  origin: string,
  passphrase: string | undefined,
  budget: Budget,
): Promise<KeyMatchInputs["key"]> {
  const half = await publicKeys.publicHalfOf(
    block,
    origin,
    passphrase,
    Math.max(0, budget.endsAt - performance.now()),
  );
  if ("stopped" in half) {
    // The words of every other command stopped by its budget (src/local/deadline.ts).
    throw new Stopped(
      `${origin}, line ${block.line}: stopped at the time limit (${budget.seconds} s; --timeout SECONDS sets it) while ${half.stopped}; no verdict`,
    );
  }
  if (!half.ok) throw new InputProblem(half.message);
  return { spki: half.spki, origin };
}

/** `text` with each block's characters replaced by spaces, line ends kept. */
function blank(text: string, blocks: readonly PemBlockText[]): string {
  let out = text;
  for (const block of blocks) {
    out = out.slice(0, block.offset) + block.text.replace(/[^\r\n]/g, " ") + out.slice(block.end);
  }
  return out;
}

/** Issues of an input, each at its place (`server.csr:3: message`); `what` names the input. */
function problemIn(issues: readonly Issue[], place: (line: number) => string, what: string): InputProblem {
  const lines = issues.map((issue) => ({
    message:
      issue.location === undefined
        ? `${what}: ${issue.message}`
        : `${place(issue.location.line)}: ${issue.message}`,
  }));
  const message = lines.length === 1 ? lines[0]!.message : `${what} have ${lines.length} problems`;
  return new InputProblem(message, lines.length === 1 ? [] : lines);
}

/**
 * The match (CONTRACT §8.2): the key and the request agree, and with -c, a certificate holds it.
 * `describe` names a key's type and size in openssl's words (the certificate decoder's reading).
 */
export async function compareKeyMatchInputs(
  inputs: KeyMatchInputs,
  describe: (spki: Uint8Array) => { keyType: string; keyBits: number | null },
): Promise<KeyMatchAnswer> {
  const keySha256 = inputs.key === null ? null : await publicKeySha256(inputs.key.spki);
  const certificates = await Promise.all(
    inputs.certificates.map(async (certificate, index) => ({
      index,
      subject: certificate.subject,
      publicKeySha256: await publicKeySha256(certificate.publicKey.spki),
    })),
  );
  const matching = certificatesHolding(keySha256 ?? inputs.csr?.publicKeySha256 ?? null, certificates);
  const pairOk = keySha256 === null || inputs.csr === null || keySha256 === inputs.csr.publicKeySha256;
  const certificatesOk = !inputs.certificatesGiven || matching.length > 0;
  const facts = inputs.key === null ? null : describe(inputs.key.spki);
  return {
    match: pairOk && certificatesOk,
    key:
      keySha256 === null || facts === null
        ? null
        : { keyType: facts.keyType, keyBits: facts.keyBits, publicKeySha256: keySha256 },
    csr:
      inputs.csr === null
        ? null
        : { subject: inputs.csr.subject, publicKeySha256: inputs.csr.publicKeySha256 },
    certificates,
    matchingCertificateIndexes: inputs.certificatesGiven ? matching : [],
  };
}

/**
 * `key-match`'s answer in words: one line per input (its publicKeySha256) and the verdict
 * (`Match: the request is for this key; certificate #0 (CN=…) holds the key.`), for a terminal
 * to print, the verdict coloured.
 */
export function keyMatchWords(
  answer: KeyMatchAnswer,
  inputs: KeyMatchInputs,
): { lines: string[]; verdict: string } {
  const lines: string[] = [];
  if (answer.key !== null) {
    const size =
      answer.key.keyBits === null ? answer.key.keyType : `${answer.key.keyType} ${answer.key.keyBits} bits`;
    lines.push(`key ${inputs.key!.origin} (${size}): publicKeySha256 ${answer.key.publicKeySha256}`);
  }
  if (answer.csr !== null) {
    lines.push(
      `request (${answer.csr.subject || "empty subject"}): publicKeySha256 ${answer.csr.publicKeySha256}`,
    );
  }
  const names = inputs.certificates.map((certificate, index) => certificateName(certificate, index));
  for (const entry of answer.certificates) {
    lines.push(`${names[entry.index]}: publicKeySha256 ${entry.publicKeySha256}`);
  }
  const clauses: string[] = [];
  if (answer.key !== null && answer.csr !== null) {
    clauses.push(
      answer.key.publicKeySha256 === answer.csr.publicKeySha256
        ? "the request is for this key"
        : "the request is for another key",
    );
  }
  if (inputs.certificatesGiven) {
    const what = answer.key === null ? "the request's key" : "the key";
    const holders = answer.matchingCertificateIndexes.map((index) => names[index]!);
    clauses.push(
      holders.length === 0
        ? `no certificate holds ${what}`
        : `${listSome(holders, holders.length)} ${holders.length === 1 ? "holds" : "hold"} ${what}`,
    );
  }
  return { lines, verdict: `${answer.match ? "Match" : "No match"}: ${clauses.join("; ")}.` };
}
