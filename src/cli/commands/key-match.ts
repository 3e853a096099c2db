import {
  compareKeyMatchInputs,
  InputProblem,
  type KeyMatchAnswer,
  type KeyMatchInputs,
  keyMatchWords,
  readKeyMatchInputs,
  Stopped,
} from "../../local/key-match-inputs.ts";
import { COMMON_HELP, makeRun, type Run } from "../args.ts";
import { command, help, options } from "../command.ts";
import { certificateDecoder, describePublicKey } from "../composition-root.ts";
import { EXIT, stdinOnlyOnce, UsageError } from "../io.ts";
import { renderError } from "../render.ts";

const HELP = help`Usage: nettools key-match [-c CERT]... [-k KEY] [-r CSR] [--passin env:VAR|file:PATH]

Does this key belong to this certificate, and to this request? Compares the public keys
(SubjectPublicKeyInfo, which works for every key type, unlike the RSA modulus) of two or three
inputs, each a file or "-" for stdin:
${options(24, {
  "-c, --cert FILE": {
    repeatable: `PEM certificates (repeatable), e.g. a HAProxy crt file holding the chain
                        and the key: a private key in it is the key input when -k is not given;
                        or a PKCS#12 file (.p12, .pfx): its certificates, and its key
                        as the key input`,
  },
  "-k, --key FILE": `one private key: PKCS#8 (RSA, EC, Ed25519, Ed448), PKCS#1 RSA, SEC1 EC
                        (an EC PARAMETERS block before it is skipped), or encrypted PKCS#8`,
  "-r, --csr FILE": "one certificate signing request",
  "--passin SOURCE": `the encrypted key's passphrase or the PKCS#12 file's password: env:VAR or
                        file:PATH (its first line); never the password itself`,
})}

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

export const keyMatch = command("key-match", HELP, async ({ values, positionals }, io) => {
  // Never a client: the key stays in this process whatever --server or NETTOOLS_SERVER say.
  const run = makeRun(
    { ...io, env: { ...io.env, NETTOOLS_SERVER: undefined } },
    { json: values.json === true, timeout: values.timeout },
  );
  const budget = { seconds: run.timeoutSeconds, endsAt: performance.now() + run.timeoutSeconds * 1000 };
  if (values.server !== undefined || (io.env.NETTOOLS_SERVER ?? "") !== "") {
    run.notice(
      `key-match runs in this process only; ${values.server === undefined ? "NETTOOLS_SERVER" : "--server"} is not used, and the key is never sent anywhere`,
    );
  }
  if (positionals.length > 0) {
    throw new UsageError("key-match takes its inputs as -c CERT, -k KEY and -r CSR, not as arguments");
  }
  const certFiles = values.cert ?? [];
  stdinOnlyOnce([...certFiles, values.key, values.csr], 'only one input can be "-" (stdin)');
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
});

/** The answer's words (src/local/key-match-inputs.ts), the verdict green or red. */
function renderAnswer(answer: KeyMatchAnswer, inputs: KeyMatchInputs, run: Run): string {
  const { lines, verdict } = keyMatchWords(answer, inputs);
  return `${[...lines, answer.match ? run.out.green(verdict) : run.out.red(verdict)].join("\n")}\n`;
}
