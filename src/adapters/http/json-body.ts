/**
 * Reads a POST body as JSON under the rules of CONTRACT §1, in its order: size and media type
 * ({@link readBodyBytes}), then UTF-8, JSON and a nesting cap ({@link readJsonBytes}); admission
 * weighs the body between the two (ADR 48). A declared Content-Length over the limit is refused before
 * anything is read; a body without one is read up to the limit first, so an oversized body is
 * a 413 whatever its media type. Failures are HttpErrors (transport codes), or a DomainError
 * INVALID_INPUT for nesting past the cap.
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
 * The refusal of a body that has not arrived in full within its time limit. The rest of the body
 * is never read, so the answer closes the connection.
 */
export function bodyTimeout(limitMs: number): HttpError {
  const seconds = (limitMs / 1000).toFixed(2).replace(/\.?0+$/, "");
  return new HttpError(
    "INVALID_JSON",
    `The request body did not arrive in full within ${seconds} s; send it faster, or a smaller one.`,
    { connection: "close" },
  );
}

const cutShort = (): HttpError =>
  // The client went away or stalled until the transport cut it off: not a server fault, and
  // nobody is left to read the answer. Reported as the truncated body it is.
  new HttpError("INVALID_JSON", "The request body ended before it was complete.");

/**
 * The body's bytes, at most MAX_BODY_BYTES of them, arrived within `timeLimitMs` of the call.
 * With a declared Content-Length (already checked against the limit, and enforced by the HTTP
 * server's framing) the body is read in one call, which is several times cheaper than pulling a
 * stream; a chunked body is pulled and counted, and reading stops as soon as it passes the limit.
 *
 * A body that has already arrived whole is taken at once, without a timer: only a body still on
 * its way is raced against its time limit (ADR 60; a timer, a promise and a race per request
 * were 5–8 % of a small POST's CPU). Whether it has arrived is asked with `Bun.peek.status`,
 * which answers without a turn of microtasks (ADR 64: it replaced a race against a settled
 * promise). Bun's server hands a request to the route before its body, even one that came in the
 * same packet as the headers: there the body is still on its way at this point, and is watched
 * by the one timer of its time limit ({@link BodyWatch}).
 */
async function readCapped(request: Request, declared: boolean, timeLimitMs: number): Promise<Uint8Array> {
  if (declared) {
    const bytes = request.bytes();
    const status = Bun.peek.status(bytes);
    if (status === "fulfilled") return Bun.peek(bytes) as Uint8Array;
    if (status === "rejected") return await bytes.catch(() => Promise.reject(cutShort()));
    return await withinTimeLimit(bytes, timeLimitMs, true);
  }
  return await withinTimeLimit(readChunked(request), timeLimitMs, false);
}

/**
 * `reading`, or the body's timeout once `timeLimitMs` have passed, whichever comes first. A
 * reading that fails is a body cut short when `failureIsCutShort` (the runtime's own read), else
 * its own error (the chunked reader's refusals). The body is read on after a timeout, only to be
 * dropped with the connection.
 */
function withinTimeLimit(
  reading: Promise<Uint8Array>,
  timeLimitMs: number,
  failureIsCutShort: boolean,
): Promise<Uint8Array> {
  if (!Number.isFinite(timeLimitMs))
    return failureIsCutShort ? reading.catch(() => Promise.reject(cutShort())) : reading;
  let watch = watches.get(timeLimitMs);
  if (watch === undefined) {
    watch = new BodyWatch(timeLimitMs);
    watches.set(timeLimitMs, watch);
  }
  return watch.watch(reading, failureIsCutShort);
}

/** A body being watched: when its time is up, and how to refuse it (null once it has settled). */
interface Watched {
  readonly deadline: number;
  refuse: ((error: HttpError) => void) | null;
}

/**
 * The bodies on their way that share one time limit, watched by one timer (ADR 64). A timer per
 * body (`setTimeout`, then `clearTimeout` when it arrived) was most of the cost of reading a
 * small body in the server, where every body is still on its way when the route reads it. With
 * one limit, deadlines come in the order the reads began: the watch keeps them in that order and
 * its timer is armed for the oldest body still unsettled; a settled body leaves the queue as soon
 * as it is at its head. Each body's limit still counts from its own read (ADR 19).
 */
class BodyWatch {
  private readonly queue: Watched[] = [];
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly limitMs: number) {}

  watch(reading: Promise<Uint8Array>, failureIsCutShort: boolean): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const watched: Watched = { deadline: performance.now() + this.limitMs, refuse: reject };
      this.dropSettled();
      this.queue.push(watched);
      if (this.timer === null) this.arm(this.limitMs);
      reading.then(
        (bytes) => {
          watched.refuse = null;
          resolve(bytes);
        },
        (error: unknown) => {
          watched.refuse = null;
          reject(failureIsCutShort ? cutShort() : error);
        },
      );
    });
  }

  /** Drops the settled bodies at the head of the queue. */
  private dropSettled(): void {
    const queue = this.queue;
    while (this.head < queue.length && queue[this.head]!.refuse === null) this.head++;
    if (this.head === queue.length) {
      queue.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= queue.length) {
      queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The timer does not keep the process alive: a body on its way has a connection that does. */
  private arm(ms: number): void {
    this.timer = setTimeout(this.expire, Math.max(0, ms));
    this.timer.unref?.();
  }

  /** Refuses every unsettled body whose time is up, then waits for the oldest one left. */
  private readonly expire = (): void => {
    this.timer = null;
    const now = performance.now();
    for (;;) {
      this.dropSettled();
      const oldest = this.queue[this.head];
      if (oldest === undefined) return;
      if (oldest.deadline > now) {
        this.arm(oldest.deadline - now);
        return;
      }
      const refuse = oldest.refuse;
      oldest.refuse = null;
      refuse?.(bodyTimeout(this.limitMs));
    }
  };
}

/** The watch of each time limit in use (one in the server: every route has the same). */
const watches = new Map<number, BodyWatch>();

async function readChunked(request: Request): Promise<Uint8Array> {
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
      throw cutShort();
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
 * The body's bytes, checked for size and media type (CONTRACT §1's first steps), not yet decoded:
 * what admission weighs before any parsing is paid for (ADR 48).
 * @throws HttpError PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE or INVALID_JSON (a body cut short or too slow)
 */
export async function readBodyBytes(
  request: Request,
  timeLimitMs = Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(request, declared !== null, timeLimitMs);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new HttpError(
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be sent as Content-Type: application/json.",
    );
  }
  return bytes;
}

/**
 * The size a request's body is weighed at before it is read (ADR 48): its Content-Length, or the
 * largest body the API takes (MAX_BODY_BYTES) when it declares none (a chunked body, whose size is
 * known only once read) or one past the limit (refused unread as 413 when admitted) or not a number.
 */
export function declaredBodyBytes(request: Request): number {
  const declared = request.headers.get("content-length");
  if (declared === null) return MAX_BODY_BYTES;
  const bytes = Number(declared);
  return bytes >= 0 && bytes <= MAX_BODY_BYTES ? bytes : MAX_BODY_BYTES;
}

const notJson = (text: string): HttpError =>
  new HttpError(
    "INVALID_JSON",
    text.trim() === ""
      ? "The request body is empty; a JSON object is required."
      : "The request body is not valid JSON.",
  );

const tooDeep = () =>
  invalidInput([
    {
      message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs more than 2.`,
      path: [],
    },
  ]);

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * UTF-8, then JSON, then nesting depth, in that order (CONTRACT §1), in one pass whose cost does
 * not grow with how wrong the body is:
 * - A body with at most MAX_JSON_DEPTH `{`/`[` bytes (every valid request: it has 1 to 3) can
 *   neither nest too deep nor hold many containers: it goes straight to `JSON.parse`.
 * - Any other body is first scanned once, without building anything ({@link scanJson}): the scan
 *   decides INVALID_JSON exactly as `JSON.parse` would, and the nesting depth, and counts the
 *   containers nested beyond `opaqueBeyond`. A body nesting too deep is refused without being
 *   parsed; one with such containers is parsed with each of them read as `null`, so a 64 KiB body
 *   of 21,000 `{}` entries costs what 21,000 `null` entries cost, and gets the same issues.
 */
export function readJsonBytes(bytes: Uint8Array, opaqueBeyond: number): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new HttpError("INVALID_JSON", "The request body is not valid UTF-8.");
  }
  if (fewContainers(bytes)) {
    try {
      return JSON.parse(text);
    } catch {
      throw notJson(text);
    }
  }
  const scan = scanJson(bytes, opaqueBeyond);
  if (scan === null) throw notJson(text);
  if (scan.depth > MAX_JSON_DEPTH) throw tooDeep();
  return JSON.parse(scan.opaque === 0 ? text : looseUtf8.decode(withOpaqueAsNull(bytes, opaqueBeyond)));
}

const looseUtf8 = new TextDecoder("utf-8");

/** Whether the body has at most MAX_JSON_DEPTH `{` and `[` bytes in all (native searches, no loop per byte). */
function fewContainers(bytes: Uint8Array): boolean {
  let count = 0;
  for (const opener of [OPEN_BRACE, OPEN_BRACKET]) {
    for (let at = bytes.indexOf(opener); at !== -1; at = bytes.indexOf(opener, at + 1)) {
      if (++count > MAX_JSON_DEPTH) return false;
    }
  }
  return true;
}

/** What one scan of a JSON text found. */
export interface JsonScan {
  /** Deepest nesting of arrays and objects (the top-level container is level 1). */
  depth: number;
  /** Containers opened at a level beyond `opaqueBeyond`. */
  opaque: number;
}

const WHITESPACE = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[byte] = 1;
const IN_OBJECT = 1;
const IN_ARRAY = 2;

/**
 * Checks that `bytes` (valid UTF-8) are one JSON text as RFC 8259 defines it — what `JSON.parse`
 * accepts after a UTF-8 decoder has dropped a leading byte-order mark — and measures its nesting.
 * Returns null at the first byte that is not JSON. Builds nothing; iterative, so any depth is safe.
 */
export function scanJson(bytes: Uint8Array, opaqueBeyond: number): JsonScan | null {
  const end = bytes.length;
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const stack: number[] = [];
  let depth = 0;
  let opaque = 0;
  let wantValue = true;
  for (;;) {
    while (at < end && WHITESPACE[bytes[at] as number] === 1) at++;
    if (wantValue) {
      if (at >= end) return null;
      const byte = bytes[at] as number;
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        stack.push(byte === OPEN_BRACE ? IN_OBJECT : IN_ARRAY);
        if (stack.length > depth) depth = stack.length;
        if (stack.length > opaqueBeyond) opaque++;
        at++;
        while (at < end && WHITESPACE[bytes[at] as number] === 1) at++;
        if (bytes[at] === byte + 2 /* "}" or "]" */) {
          stack.pop();
          at++;
          wantValue = false;
        } else if (byte === OPEN_BRACE) {
          at = memberName(bytes, at);
          if (at === -1) return null;
        }
        continue;
      }
      at = scalarEnd(bytes, at);
      if (at === -1) return null;
      wantValue = false;
      continue;
    }
    const inside = stack[stack.length - 1];
    if (inside === undefined) return at === end ? { depth, opaque } : null;
    const byte = bytes[at];
    if (byte === 0x2c /* "," */) {
      at++;
      if (inside === IN_OBJECT) {
        while (at < end && WHITESPACE[bytes[at] as number] === 1) at++;
        at = memberName(bytes, at);
        if (at === -1) return null;
      }
      wantValue = true;
    } else if (byte === (inside === IN_OBJECT ? 0x7d : 0x5d)) {
      stack.pop();
      at++;
    } else return null;
  }
}

/** From a member's opening quote past its name, whitespace and colon; -1 if that is not there. */
function memberName(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== 0x22) return -1;
  let next = stringEnd(bytes, at);
  if (next === -1) return -1;
  while (next < bytes.length && WHITESPACE[bytes[next] as number] === 1) next++;
  return bytes[next] === 0x3a /* ":" */ ? next + 1 : -1;
}

const LITERALS: Record<number, readonly number[]> = {
  116: [0x74, 0x72, 0x75, 0x65], // true
  102: [0x66, 0x61, 0x6c, 0x73, 0x65], // false
  110: [0x6e, 0x75, 0x6c, 0x6c], // null
};

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/** The end of the string, number or literal starting at `at`, or -1 if none starts there. */
function scalarEnd(bytes: Uint8Array, at: number): number {
  const byte = bytes[at] as number;
  if (byte === 0x22) return stringEnd(bytes, at);
  const literal = LITERALS[byte];
  if (literal !== undefined) {
    for (let i = 0; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return -1;
    return at + literal.length;
  }
  // number = [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "+" / "-" ] 1*DIGIT ]
  let next = at;
  if (bytes[next] === 0x2d) next++;
  if (bytes[next] === 0x30) next++;
  else if (isDigit(bytes[next])) while (isDigit(bytes[next])) next++;
  else return -1;
  if (bytes[next] === 0x2e) {
    next++;
    if (!isDigit(bytes[next])) return -1;
    while (isDigit(bytes[next])) next++;
  }
  if (bytes[next] === 0x65 || bytes[next] === 0x45) {
    next++;
    if (bytes[next] === 0x2b || bytes[next] === 0x2d) next++;
    if (!isDigit(bytes[next])) return -1;
    while (isDigit(bytes[next])) next++;
  }
  return next;
}

const isHex = (byte: number | undefined): boolean =>
  byte !== undefined &&
  ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));

/** Past the closing quote of the string opening at `at`; -1 on a control character, a bad escape or no end. */
function stringEnd(bytes: Uint8Array, at: number): number {
  const end = bytes.length;
  let next = at + 1;
  while (next < end) {
    const byte = bytes[next] as number;
    if (byte === 0x22) return next + 1;
    if (byte < 0x20) return -1;
    if (byte === 0x5c) {
      const escaped = bytes[next + 1];
      if (escaped === 0x75 /* u */) {
        if (
          !(
            isHex(bytes[next + 2]) &&
            isHex(bytes[next + 3]) &&
            isHex(bytes[next + 4]) &&
            isHex(bytes[next + 5])
          )
        )
          return -1;
        next += 6;
        continue;
      }
      // " \ / b f n r t
      if (
        !(
          escaped === 0x22 ||
          escaped === 0x5c ||
          escaped === 0x2f ||
          escaped === 0x62 ||
          escaped === 0x66 ||
          escaped === 0x6e ||
          escaped === 0x72 ||
          escaped === 0x74
        )
      )
        return -1;
      next += 2;
      continue;
    }
    next++;
  }
  return -1;
}

const NULL_BYTES = [0x6e, 0x75, 0x6c, 0x6c];

/**
 * A copy of a valid JSON text in which every container opened beyond level `opaqueBeyond` is
 * replaced, whole, by `null`.
 */
function withOpaqueAsNull(bytes: Uint8Array, opaqueBeyond: number): Uint8Array {
  // `{}` (2 bytes) becomes `null` (4): at most twice the size.
  const out = new Uint8Array(bytes.length * 2);
  let written = 0;
  let level = 0;
  let inString = false;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (inString) {
      out[written++] = byte;
      if (byte === 0x5c) out[written++] = bytes[++at] as number;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if ((byte === OPEN_BRACE || byte === OPEN_BRACKET) && level === opaqueBeyond) {
      at = containerEnd(bytes, at) - 1;
      for (const nullByte of NULL_BYTES) out[written++] = nullByte;
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) level++;
    else if (byte === 0x7d || byte === 0x5d) level--;
    else if (byte === 0x22) inString = true;
    out[written++] = byte;
  }
  return out.subarray(0, written);
}

/** Past the bracket that closes the container opening at `at` (the text is valid JSON). */
function containerEnd(bytes: Uint8Array, at: number): number {
  let level = 0;
  let inString = false;
  for (let next = at; next < bytes.length; next++) {
    const byte = bytes[next] as number;
    if (inString) {
      if (byte === 0x5c) next++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) level++;
    else if ((byte === 0x7d || byte === 0x5d) && --level === 0) return next + 1;
  }
  return bytes.length;
}
