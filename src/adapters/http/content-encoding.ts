/**
 * Serving precompressed static assets by `Accept-Encoding` (RFC 9110 §12.5.3, issue 13): brotli
 * or gzip when the client accepts it, the plain bytes otherwise, always with
 * `Vary: Accept-Encoding` and the chosen variant's `Content-Length`.
 */

/** A content coding the server can send. */
export type Coding = "br" | "gzip" | "identity";

/** One asset in every coding. */
export interface EncodedAsset {
  identity: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer>;
}

/** Builds an asset from its plain content and the base64 variants computed at build time. */
export function encodedAsset(
  plain: string | Uint8Array<ArrayBuffer>,
  compressed: { gzip: string; br: string },
): EncodedAsset {
  return {
    identity: typeof plain === "string" ? new TextEncoder().encode(plain) : plain,
    gzip: Buffer.from(compressed.gzip, "base64"),
    br: Buffer.from(compressed.br, "base64"),
  };
}

/** Each coding named in the header (lowercase) with its weight `q` (1 when not given). */
function weights(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of header.split(",")) {
    const [name = "", ...params] = item.split(";").map((part) => part.trim());
    if (name === "") continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    out.set(name.toLowerCase(), q);
  }
  return out;
}

/**
 * The coding to send for an `Accept-Encoding` header: the acceptable compressed coding with the
 * highest weight, brotli on a tie (it is smaller); `identity` when neither is acceptable, when the
 * header is absent, or when it is empty (RFC 9110: an empty value asks for no coding). `*` stands
 * for every coding the header does not name. Identity is sent even where the header refuses it,
 * the usual choice instead of a 406.
 */
export function chooseCoding(header: string | null): Coding {
  if (header === null || header.trim() === "") return "identity";
  const given = weights(header);
  const any = given.get("*") ?? 0;
  const br = given.get("br") ?? any;
  // x-gzip is gzip's old name (RFC 9110 §8.4.1.3); only an explicit mention counts.
  const gzip = Math.max(given.get("gzip") ?? any, given.get("x-gzip") ?? 0);
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

/**
 * The body and headers of `asset` in the coding the request accepts; `headers` are the asset's
 * own. The Responder adds the common headers and merges its own `Vary` (CORS `Origin`) into this one.
 */
export function encodedAnswer(
  request: Request,
  asset: EncodedAsset,
  headers: Readonly<Record<string, string>>,
): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const coding = chooseCoding(request.headers.get("accept-encoding"));
  const body = asset[coding];
  const out: Record<string, string> = {
    ...headers,
    vary: "Accept-Encoding",
    "content-length": String(body.length),
  };
  if (coding !== "identity") out["content-encoding"] = coding;
  return { body, headers: out };
}
