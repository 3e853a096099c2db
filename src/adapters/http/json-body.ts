/**
 * Reads a POST body as JSON under the rules of CONTRACT §1, in its order:
 * size, media type, UTF-8 JSON. A declared Content-Length over the limit is refused before
 * anything is read; a body without one is read up to the limit first, so an oversized body is
 * a 413 whatever its media type. Failures are DomainErrors.
 */
import { DomainError } from "../../domain/errors.ts";
import { MAX_BODY_BYTES } from "../../domain/limits.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

const tooLarge = (): DomainError =>
  new DomainError(
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`,
  );

/** Whether a Content-Type header names `application/json` (case-insensitive, parameters allowed). */
export function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  const semicolon = header.indexOf(";");
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === "application/json";
}

async function readCapped(request: Request): Promise<Uint8Array> {
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Returns the parsed JSON value of the request body.
 * @throws DomainError PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE or INVALID_JSON
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(request);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new DomainError(
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be sent as Content-Type: application/json.",
    );
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new DomainError("INVALID_JSON", "The request body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError(
      "INVALID_JSON",
      text.trim() === ""
        ? "The request body is empty; a JSON object is required."
        : "The request body is not valid JSON.",
    );
  }
}
