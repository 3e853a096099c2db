/**
 * How the clients of a chain problem (CONTRACT §8.1: `chrome`, `firefox`, `apple`, `go`,
 * `openssl`) are named to people, shared by `nettools chain` (src/cli/render-chain.ts) and the
 * web page so both say "Safari and macOS refuse this: …" alike; and those of a signing request
 * (`nettools csr`). Pure: the page bundles it.
 */
import type { ResultOf } from "../contract/operations.ts";

export type ChainClient = ResultOf<"certificateChain">["problems"][number]["clients"][number];

/** How each client is called: `apple` is Apple's platforms. */
const CLIENT_NAMES: Readonly<Record<ChainClient, readonly string[]>> = {
  chrome: ["Chrome"],
  firefox: ["Firefox"],
  apple: ["Safari", "macOS"],
  go: ["Go programs"],
  openssl: ["OpenSSL clients"],
};
/** The names above that are plural on their own ("Go programs refuse …"). */
const PLURAL_NAMES = new Set(["Go programs", "OpenSSL clients"]);

/** `Chrome, Safari and macOS refuse this`, or null when no client is named. */
export function refusingClients(clients: readonly ChainClient[]): string | null {
  const names = clients.flatMap((client) => CLIENT_NAMES[client]);
  if (names.length === 0) return null;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
  const verb = names.length === 1 && !PLURAL_NAMES.has(names[0]!) ? "refuses" : "refuse";
  return `${list} ${verb} this`;
}

/** `Chrome, Safari and macOS refuse this: <observed>`; the observation alone when no client is named. */
export function withClients(clients: readonly ChainClient[], observed: string): string {
  const refusal = refusingClients(clients);
  return refusal === null ? observed : `${refusal}: ${observed}`;
}

/** How the clients of a signing request's problem are named (`nettools csr`): Apple with its platforms. */
const REQUEST_CLIENT_NAMES: Readonly<Record<string, string>> = {
  chrome: "Chrome",
  firefox: "Firefox",
  apple: "Apple (Safari, macOS, iOS)",
  go: "Go",
  openssl: "OpenSSL",
};

/** `<observed> Refused by: Chrome, Apple (Safari, macOS, iOS).`; the observation alone when no client is named. */
export function withRefusingClients(clients: readonly string[], observed: string): string {
  if (clients.length === 0) return observed;
  return `${observed} Refused by: ${clients.map((client) => REQUEST_CLIENT_NAMES[client] ?? client).join(", ")}.`;
}
