import { certificateName, listSome } from "../../domain/certificates/wording.ts";
import {
  compareKeyMatchInputs,
  InputProblem,
  type KeyMatchAnswer,
  type KeyMatchInputs,
  readKeyMatchInputs,
  Stopped,
} from "../../local/key-match-inputs.ts";
import { COMMON_HELP, makeRun, parse, type Run } from "../args.ts";
import { certificateDecoder, describePublicKey } from "../composition-root.ts";
import { EXIT, UsageError } from "../io.ts";
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
      const inputs = await readKeyMatchInputs(
        io,
        { certFiles, keyFile: values.key, csrFile: values.csr, passin: values.passin },
        certificateDecoder(),
        budget,
        (notice) => io.stderr(`notice: ${notice}\n`),
      );
      const given = (inputs.key ? 1 : 0) + (inputs.csr ? 1 : 0) + (inputs.certificatesGiven ? 1 : 0);
      if (given < 2) {
        throw new UsageError(
          "key-match compares two or three inputs: give two of -c CERT, -k KEY and -r CSR (a key inside the -c file counts)",
        );
      }
      const answer = await compareKeyMatchInputs(inputs, describePublicKey);
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

function renderAnswer(answer: KeyMatchAnswer, inputs: KeyMatchInputs, run: Run): string {
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
