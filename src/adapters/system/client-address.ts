/**
 * The real ClientAddressSource: the socket peer, and — only when that peer is a trusted
 * proxy — the forwarding header walked from the right (CONTRACT §5).
 *
 * Why from the right: each proxy appends the address it saw, so entries left of the last
 * trusted hop may have been written by the client itself. Anything unusable where the walk
 * stops (a malformed entry, `unknown`, an obfuscated `_name`) is a 503, never a guess.
 */
import { type IpAddr, parseAddr, unmap } from "../../domain/ip/addr.ts";
import type { ClientAddressResult, ClientAddressSource } from "../../domain/ports.ts";
import type { TrustedNetworks } from "./trusted-proxies.ts";

/** Which header the trusted proxies maintain (TRUSTED_PROXY_HEADER). */
export type ForwardingHeader = "x-forwarded-for" | "forwarded";

/** Upper bound on hops read from one header: a longer chain is not a real proxy path. */
export const MAX_FORWARDED_HOPS = 64;

/** The textual peer address of the connection that carried `request`, or null. */
export type PeerAddressOf = (request: Request) => string | null;

/** One hop's node text as written in the header, with any port and brackets removed. */
function stripPort(node: string): string {
  if (node.startsWith("[")) {
    const close = node.indexOf("]");
    if (close === -1) return node;
    const rest = node.slice(close + 1);
    if (rest !== "" && !/^:[0-9]{1,5}$/.test(rest)) return node;
    return node.slice(1, close);
  }
  const colon = node.indexOf(":");
  if (colon !== -1 && colon === node.lastIndexOf(":") && node.includes(".")) {
    return /^:[0-9]{1,5}$/.test(node.slice(colon)) ? node.slice(0, colon) : node;
  }
  return node;
}

/** The `for=` node of each RFC 7239 element, left to right; null when an element has none. */
function forwardedNodes(header: string): (string | null)[] {
  const nodes: (string | null)[] = [];
  for (const element of splitOutsideQuotes(header, ",")) {
    let node: string | null = null;
    for (const pair of splitOutsideQuotes(element, ";")) {
      const equals = pair.indexOf("=");
      if (equals === -1) continue;
      if (pair.slice(0, equals).trim().toLowerCase() !== "for") continue;
      let value = pair.slice(equals + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      node = value;
    }
    nodes.push(node);
  }
  return nodes;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && quoted) i++;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function hopsOf(request: Request, header: ForwardingHeader): (string | null)[] | null {
  const value = request.headers.get(header);
  if (value === null || value.trim() === "") return null;
  if (header === "forwarded") return forwardedNodes(value);
  return value.split(",").map((entry) => entry.trim());
}

function parseHop(node: string | null): IpAddr | null {
  if (node === null) return null;
  const parsed = parseAddr(stripPort(node.trim()));
  return parsed.ok ? unmap(parsed.value) : null;
}

/** Socket peer plus trusted-proxy headers. */
export class ProxyAwareClientAddressSource implements ClientAddressSource {
  constructor(
    private readonly peerOf: PeerAddressOf,
    private readonly trusted: TrustedNetworks,
    private readonly header: ForwardingHeader = "x-forwarded-for",
  ) {}

  clientAddress(request: Request): ClientAddressResult {
    const peerText = this.peerOf(request);
    const peer = peerText === null ? null : parseHop(peerText);
    if (peer === null) return { ok: false, reason: "the connection has no socket address" };
    if (this.trusted.prefixes.length === 0 || !this.trusted.contains(peer))
      return { ok: true, address: peer };

    const hops = hopsOf(request, this.header);
    if (hops === null) {
      return {
        ok: false,
        reason: `the trusted proxy sent no ${this.header === "forwarded" ? "Forwarded" : "X-Forwarded-For"} header`,
      };
    }
    if (hops.length > MAX_FORWARDED_HOPS) {
      return { ok: false, reason: `the forwarding header lists more than ${MAX_FORWARDED_HOPS} hops` };
    }
    let leftmost: IpAddr | null = null;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseHop(hops[i] ?? null);
      if (hop === null)
        return { ok: false, reason: "the forwarding header has an entry that is not an IP address" };
      if (!this.trusted.contains(hop)) return { ok: true, address: hop };
      leftmost = hop;
    }
    // Every hop is a trusted proxy: the request started inside the trusted network.
    return leftmost === null
      ? { ok: false, reason: "the forwarding header is empty" }
      : { ok: true, address: leftmost };
  }
}
