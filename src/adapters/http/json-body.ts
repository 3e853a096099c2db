/**
 * Reads a POST body as JSON under the rules of CONTRACT §1, in its order:
 * size, media type, UTF-8 JSON. A declared Content-Length over the limit is refused before
 * anything is read; a body without one is read up to the limit first, so an oversized body is
 * a 413 whatever its media type. Failures are HttpErrors (transport codes), or a DomainError INVALID_INPUT for nesting past the cap.
 */
import { HttpError } from "../../contract/errors.ts";
import { invalidInput } from "../../domain/errors.ts";
import { MAX_BODY_BYTES } from "../../domain/limits.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Deepest nesting of arrays and objects accepted in a body. No request of this API nests more
 * than two levels (`{"inputs":[…]}`); the cap keeps pathological bodies (a 64 KiB body holds
 * 32768 levels) away from code that recurses or re-serializes the value — Elysia's validation
 * error stringifies the whole value with indentation, which is quadratic in the depth and
 * overflows the stack on deep input.
 */
export const MAX_JSON_DEPTH = 32;

const tooLarge = (): HttpError =>
  new HttpError("PAYLOAD_TOO_LARGE", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`);

/** Whether a Content-Type header names `application/json` (case-insensitive, parameters allowed). */
export function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  const semicolon = header.indexOf(";");
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * The body's bytes, at most MAX_BODY_BYTES of them. With a declared Content-Length (already
 * checked against the limit, and enforced by the HTTP server's framing) the body is read in one
 * call, which is several times cheaper than pulling a stream; a chunked body is pulled and
 * counted, and reading stops as soon as it passes the limit.
 */
async function readCapped(request: Request, declared: boolean): Promise<Uint8Array> {
  if (declared) {
    try {
      return await request.bytes();
    } catch {
      throw new HttpError("INVALID_JSON", "The request body ended before it was complete.");
    }
  }
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away or stalled until the idle timeout cut it off: not a server fault,
      // and nobody is left to read the answer. Reported as the truncated body it is.
      throw new HttpError("INVALID_JSON", "The request body ended before it was complete.");
    }
    const { done, value } = chunk;
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
 * @throws HttpError PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE or INVALID_JSON
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(request, declared !== null);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new HttpError(
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be sent as Content-Type: application/json.",
    );
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new HttpError("INVALID_JSON", "The request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A SyntaxError, or a RangeError should the parser run out of stack: either way not JSON we take.
    throw new HttpError(
      "INVALID_JSON",
      text.trim() === ""
        ? "The request body is empty; a JSON object is required."
        : "The request body is not valid JSON.",
    );
  }
  if (nestingExceeds(value, MAX_JSON_DEPTH)) {
    throw invalidInput([
      {
        message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs more than 2.`,
        path: [],
      },
    ]);
  }
  return value;
}

/** Whether `value` nests arrays/objects deeper than `limit`; iterative, so any depth is safe. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== "object") continue;
    if (depth >= limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
