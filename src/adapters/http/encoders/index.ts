/**
 * The HTTP edge's encoders: how an operation's JSON answer is written, one per result shape,
 * named by the operation's row (`encoder` in src/contract/operations.ts; `JSON.stringify` when the
 * row names none). The domain returns its own values (prefixes as words, plain objects); only here
 * do they become JSON (docs/decisions/0052-encoders-at-the-edge.md).
 */
import type { ResultEncoder } from "../../../contract/operations.ts";
import { encodeDeferredLists } from "./deferred-lists.ts";

/**
 * A JSON answer's body from an operation's result: text, or its UTF-8 bytes. Bytes may be a view
 * of a buffer the encoder reuses: they are valid until its next call, which is enough for the
 * `Response` made from them at once (the constructor copies a byte body; ADR 64).
 */
export type Encoder = (result: unknown) => string | Uint8Array<ArrayBuffer>;

/** `JSON.stringify`: the default, for results of plain values. */
export const encodeJson: Encoder = (result) => JSON.stringify(result);

/**
 * An encoder for an operation whose answer is one frozen object, the same every time (health):
 * serialized on its first answer, then sent as it is; any other value is serialized as usual.
 */
export function constantEncoder(): Encoder {
  let last: unknown;
  let json = "";
  return (result) => {
    if (result === last) return json;
    const text = JSON.stringify(result);
    if (typeof result === "object" && result !== null && Object.isFrozen(result)) {
      last = result;
      json = text;
    }
    return text;
  };
}

/** The encoder a row names (a new one: an encoder may keep state for its own operation). */
export function encoderNamed(name: ResultEncoder | undefined): Encoder {
  switch (name) {
    case undefined:
      return encodeJson;
    case "constant":
      return constantEncoder();
    case "deferredLists":
      return encodeDeferredLists;
  }
}
