/**
 * Input files of `nettools csr` and `nettools key-match` read as bytes, once for stdin, through the
 * LocalFiles port; judged by src/local/key-safe-inputs.ts, so that no byte of a private key can
 * reach an output, an error or a server (CONTRACT §8.2).
 */
import { INPUT_LIMITS, type InputLimit } from "../local/input-limits.ts";
import type { Io } from "./io.ts";
import { InputTooLarge, UsageError } from "./io.ts";

/** The bytes of a file, or of stdin for `-` (read once by the caller); an unreadable file is a UsageError. */
export async function inputBytes(
  io: Io,
  name: string,
  stdin: () => Promise<Uint8Array>,
  limit: InputLimit,
): Promise<Uint8Array> {
  if (name === "-") return stdin();
  try {
    return await io.ports.files.read(name, limit);
  } catch (error) {
    if (error instanceof InputTooLarge) throw error;
    throw new UsageError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
}

/**
 * stdin's bytes, once, however many inputs ask (the byte-level reader when the Io has one), up to
 * the largest cap of the inputs it may be (a certificate bundle's).
 */
export function stdinBytesOnce(io: Io): () => Promise<Uint8Array> {
  let bytes: Promise<Uint8Array> | null = null;
  return () => {
    bytes ??=
      io.bytes === undefined
        ? io.readStdin(INPUT_LIMITS.certificates).then((text) => new TextEncoder().encode(text))
        : io.bytes.readStdin(INPUT_LIMITS.certificates);
    return bytes;
  };
}

export {
  addCertificateFile,
  binaryProblem,
  derKeyMessage,
  sourceName,
  textOf,
} from "../local/key-safe-inputs.ts";
