import { readCertificates, readCertificationRequest } from "../../domain/certificates/csr.ts";
import type { CertificateData } from "../../domain/certificates/model.ts";
import type { CertificationRequestData } from "../../domain/certificates/request-model.ts";
import { certificateName, listSome } from "../../domain/certificates/wording.ts";
import type { Issue } from "../../domain/errors.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../../domain/limits.ts";
import { binaryOffset, CertificateBundleText } from "../../local/certificate-files.ts";
import { INPUT_LIMITS } from "../../local/input-limits.ts";
import { certificatesHolding, keyToCompare, publicKeySha256 } from "../../local/key-match.ts";
import {
  addCertificateFile,
  binaryProblem,
  derKeyMessage,
  sourceName,
  textOf,
} from "../../local/key-safe-inputs.ts";
import type { PublicKeyReader } from "../../local/ports.ts";
import {
  isPrivateKeyBlock,
  looksLikeDerKey,
  type PemBlockText,
  pemBlocksOf,
} from "../../local/private-keys.ts";
import { COMMON_HELP, makeRun, parse, type Run } from "../args.ts";
import { certificateDecoder, describePublicKey } from "../composition-root.ts";
import { EXIT, type Io, UsageError } from "../io.ts";
import { inputBytes, stdinBytesOnce } from "../key-safe-inputs.ts";
import { readPassphrase } from "../passin.ts";
import { looksLikePkcs12, readPkcs12Input } from "../pkcs12-input.ts";
import { renderError } from "../render.ts";
import { type Command, printHelp } from "./command.ts";

const HELP = `Usage: nettools key-match [-c CERT]... [-k KEY] [-r CSR] [--passin env:VAR|file:PATH]

Does this key belong to this certificate, and to this request? Compares the public keys
(SubjectPublicKeyInfo, which works for every key type, unlike the RSA modulus) of two or three
inputs, each a file or "-" for stdin:
  -c, --cert FILE       PEM certificates (repeatable), e.g. a HAProxy crt file holding the chain
                        and the key: a private key in it is the key input when -k is not given;
                        or a PKCS#12 file (.p12, .pfx): its certificates, and its key
                        as the key input
  -k, --key FILE        one private key: PKCS#8 (RSA, EC, Ed25519, Ed448), PKCS#1 RSA, SEC1 EC
                        (an EC PARAMETERS block before it is skipped), or encrypted PKCS#8
  -r, --csr FILE        one certificate signing request
  --passin SOURCE       the encrypted key's passphrase or the PKCS#12 file's password: env:VAR or
                        file:PATH (its first line); never the password itself

Prints each input's publicKeySha256 (SHA-256 of its SubjectPublicKeyInfo, as openssl x509 -pubkey
| openssl pkey -pubin -outform DER | sha256sum prints it) and the certificates that hold the key.
The key never leaves this process: key-match never contacts a server (--server and
NETTOOLS_SERVER are not used), and no output or error shows any part of it.
A legacy encrypted key (Proc-Type: 4,ENCRYPTED) is refused; convert it with
  openssl pkey -in old.key -aes256 -out new.key
${COMMON_HELP}

Exit codes for key-match: 0 the inputs match; 1 they do not; 2 invalid input (fewer than two
inputs, an unreadable file, no key or several keys, no certificate, a wrong passphrase, …).

Example: nettools key-match -c fullchain.pem -k server.key -r server.csr`;

/** What one run compares: the key's public half, the request, the certificates (each optional). */
interface Inputs {
  key: { spki: Uint8Array; origin: string } | null;
  csr: CertificationRequestData | null;
  certificates: CertificateData[];
  /** -c was given (it may still hold no certificate: then an issue says so). */
  certificatesGiven: boolean;
}

/** The `--json` answer (CONTRACT §8.2), field order as specified. */
interface KeyMatchAnswer {
  match: boolean;
  key: { keyType: string; keyBits: number | null; publicKeySha256: string } | null;
  csr: { subject: string; publicKeySha256: string } | null;
  certificates: { index: number; subject: string; publicKeySha256: string }[];
  matchingCertificateIndexes: number[];
}

/** An input error: one sentence, or located issues of a file (never any key byte). */
class InputProblem extends Error {
  constructor(
    message: string,
    readonly issues: { message: string }[] = [],
  ) {
    super(message);
  }
}

export const keyMatch: Command = {
  name: "key-match",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      cert: { type: "string", short: "c", multiple: true },
      key: { type: "string", short: "k" },
      csr: { type: "string", short: "r" },
      passin: { type: "string" },
    });
    if (values.help) return printHelp(io, HELP);
    // Never a client: the key stays in this process whatever --server or NETTOOLS_SERVER say.
    const run = makeRun(
      { ...io, env: { ...io.env, NETTOOLS_SERVER: undefined } },
      { json: values.json === true, timeout: values.timeout },
    );
    const budget = { seconds: run.timeoutSeconds, endsAt: performance.now() + run.timeoutSeconds * 1000 };
    if (values.server !== undefined || (io.env.NETTOOLS_SERVER ?? "") !== "") {
      io.stderr(
        `${run.err.dim("notice")}: key-match runs in this process only; ${values.server === undefined ? "NETTOOLS_SERVER" : "--server"} is not used, and the key is never sent anywhere\n`,
      );
    }
    if (positionals.length > 0) {
      throw new UsageError("key-match takes its inputs as -c CERT, -k KEY and -r CSR, not as arguments");
    }
    const certFiles = values.cert ?? [];
    if ([...certFiles, values.key, values.csr].filter((name) => name === "-").length > 1) {
      throw new UsageError('only one input can be "-" (stdin)');
    }
    try {
      const inputs = await readInputs(io, certFiles, values.key, values.csr, values.passin, budget);
      const given = (inputs.key ? 1 : 0) + (inputs.csr ? 1 : 0) + (inputs.certificatesGiven ? 1 : 0);
      if (given < 2) {
        throw new UsageError(
          "key-match compares two or three inputs: give two of -c CERT, -k KEY and -r CSR (a key inside the -c file counts)",
        );
      }
      const answer = await compare(inputs);
      io.stdout(run.json ? `${JSON.stringify(answer)}\n` : renderAnswer(answer, inputs, run));
      return answer.match ? EXIT.ok : EXIT.findings;
    } catch (error) {
      if (error instanceof Stopped) {
        io.stderr(`${run.err.red(run.err.bold("error"))}: ${error.message}\n`);
        return EXIT.failure;
      }
      if (!(error instanceof InputProblem)) throw error;
      const envelope = { code: "INVALID_INPUT", message: error.message, issues: error.issues };
      if (run.json) io.stdout(`${JSON.stringify({ error: envelope })}\n`);
      else io.stderr(renderError(envelope, run.err));
      return EXIT.invalidInput;
    }
  },
};

async function readInputs(
  io: Io,
  certFiles: readonly string[],
  keyFile: string | undefined,
  csrFile: string | undefined,
  passin: string | undefined,
  budget: Budget,
): Promise<Inputs> {
  const stdin = stdinBytesOnce(io);
  const decoder = certificateDecoder();
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
  let key: Inputs["key"] = null;
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
      io.stderr(
        `notice: the private key in ${keysInCertFiles[0]!.origin} is ignored: -k ${origin} is the key compared\n`,
      );
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
class Stopped extends Error {}

/** The command's time budget (`--timeout`): its length and its end on `performance.now()`'s clock. */
interface Budget {
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
): Promise<Inputs["key"]> {
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

/** The match (CONTRACT §8.2): the key and the request agree, and with -c, a certificate holds it. */
async function compare(inputs: Inputs): Promise<KeyMatchAnswer> {
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
  const facts = inputs.key === null ? null : describePublicKey(inputs.key.spki);
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

function renderAnswer(answer: KeyMatchAnswer, inputs: Inputs, run: Run): string {
  const style = run.out;
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
  const verdict = `${answer.match ? "Match" : "No match"}: ${clauses.join("; ")}.`;
  lines.push(answer.match ? style.green(verdict) : style.red(verdict));
  return `${lines.join("\n")}\n`;
}
