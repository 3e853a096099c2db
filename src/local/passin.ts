/**
 * `--passin env:VAR` or `--passin file:PATH` (the file's first line), as openssl spells them
 * (CONTRACT §8.2, §10.3): the one way a passphrase or a PKCS#12 password reaches `nettools`, so
 * that it is never on the command line. The value is never printed.
 */
import { INPUT_LIMITS, InputTooLarge } from "./input-limits.ts";
import type { LocalInputs } from "./local-inputs.ts";
import { UsageError } from "./usage-error.ts";

/** The passphrase `source` names; a source that cannot be read is a UsageError, which never holds it. */
export async function readPassphrase(source: string, io: LocalInputs): Promise<string> {
  if (source.startsWith("env:")) {
    const name = source.slice(4);
    const value = io.env[name];
    if (value === undefined)
      throw new UsageError(`--passin ${source}: the environment variable ${name} is not set`);
    return value;
  }
  if (source.startsWith("file:")) {
    const path = source.slice(5);
    try {
      const bytes = await io.ports.files.read(path, INPUT_LIMITS.passphrase);
      return new TextDecoder().decode(bytes).split(/\r?\n/)[0] ?? "";
    } catch (error) {
      if (error instanceof InputTooLarge) throw error;
      throw new UsageError(
        `--passin: cannot read ${path}: ${(error as { code?: string }).code ?? "unreadable"}`,
      );
    }
  }
  throw new UsageError("--passin takes env:VAR or file:PATH, as openssl does (never the password itself)");
}
