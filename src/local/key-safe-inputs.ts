/**
 * Input files of `nettools csr` and `nettools key-match` judged so that no byte of a private key
 * can reach an output, an error or a server (CONTRACT §8.2): a DER private key is recognised and
 * refused before it is read any further (never converted into a "certificate" and sent), and
 * binary input is named by its offset only, never shown in hex (it could be a key). The files are
 * read as bytes through the LocalFiles port, stdin once however many inputs ask for it.
 */
import { BinaryInputError, binaryOffset, type CertificateBundleText } from "./certificate-files.ts";
import { INPUT_LIMITS, type InputLimit, InputTooLarge } from "./input-limits.ts";
import type { LocalInputs } from "./local-inputs.ts";
import { looksLikeDerKey } from "./private-keys.ts";
import { UsageError } from "./usage-error.ts";

/** The bytes of a file, or of stdin for `-` (read once by the caller); an unreadable file is a UsageError. */
export async function inputBytes(
  io: LocalInputs,
  name: string,
  stdin: () => Promise<Uint8Array>,
  limit: InputLimit,
): Promise<Uint8Array> {
  if (name === "-") return stdin();
  try {
    return await io.ports.files.read(name, limit);
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    throw new UsageError(`cannot read ${name}: ${(error as { code?: string }).code ?? "unreadable"}`);
  }
}

/**
 * stdin's bytes, once, however many inputs ask (the byte-level reader when there is one), up to
 * the largest cap of the inputs it may be (a certificate bundle's).
 */
export function stdinBytesOnce(io: LocalInputs): () => Promise<Uint8Array> {
  let bytes: Promise<Uint8Array> | null = null;
  return () => {
    bytes ??=
      io.bytes === undefined
        ? io.readStdin(INPUT_LIMITS.certificates).then((text) => new TextEncoder().encode(text))
        : io.bytes.readStdin(INPUT_LIMITS.certificates);
    return bytes;
  };
}

/** The name an input has in messages: the file, or `stdin` for `-`. */
export const sourceName = (name: string): string => (name === "-" ? "stdin" : name);

/** The message for a DER private key given where something else was expected; nothing of it is read. */
export function derKeyMessage(source: string): string {
  const file = source === "stdin" ? "key.der" : source;
  return `${source} is a DER private key: it is not read or sent (key-match compares PEM keys: openssl pkey -inform DER -in ${file} -out key.pem)`;
}

/**
 * Why binary `bytes` are not the expected text (`what`, with `advice` for converting a DER one),
 * or null when they are text. Never shows a byte.
 */
export function binaryProblem(
  bytes: Uint8Array,
  source: string,
  what: string,
  advice: string,
): string | null {
  if (looksLikeDerKey(bytes)) return derKeyMessage(source);
  const offset = binaryOffset(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  return offset < 0 ? null : `${source}: binary data from byte ${offset}, not ${what}; ${advice}`;
}

/** Text of bytes already known not to be binary, without a leading byte-order mark. */
export function textOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * Adds a certificate file (PEM, DER or PKCS#7) to `bundle`, or returns why it cannot be one: a DER
 * private key, or binary data that is no certificate encoding (offset only, no bytes shown).
 */
export function addCertificateFile(
  bundle: CertificateBundleText,
  bytes: Uint8Array,
  source: string,
): string | null {
  if (looksLikeDerKey(bytes)) return derKeyMessage(source);
  try {
    bundle.addFile(bytes, source);
    return null;
  } catch (error) {
    if (!(error instanceof BinaryInputError)) throw error;
    return `${source}: binary data from byte ${error.offset}, not a certificate (PEM, DER or PKCS#7)`;
  }
}
