/**
 * What every response of the API must look like, whatever the request (CONTRACT §1, §1.1, §1.2):
 * never a 500; an error is exactly the envelope with issues of the spec's shape and the status of
 * its code; a success is the endpoint's result schema. Shared by the fuzz, corpus and real-process
 * hardening tests. `problemsOf` returns sentences (empty when the response is fine) so a failing
 * fast-check run prints what was wrong with which request.
 */
import { isIPv4, isIPv6 } from "node:net";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { CertificateBundleResult } from "../../src/contract/certificate-schemas.ts";
import { STATUS_OF } from "../../src/contract/envelope.ts";
import {
  CidrCoverResult,
  CidrSubtractResult,
  ErrorResponse,
  HealthResult,
  PublicIpResult,
  RangeToCidrsResult,
} from "../../src/contract/schemas.ts";

export interface Endpoint {
  path: string;
  methods: string[];
  /** Schema of a 200 JSON body; null for non-JSON successes (the docs pages). */
  result: TSchema | null;
}

/**
 * A copy of `schema` without `format` keywords: TypeBox's Value.Check fails every format not in
 * its global FormatRegistry, and registering formats here could hide a gap in the app itself.
 * The formats that matter (addresses, instants) are checked explicitly in `formatProblems`.
 */
function withoutFormats<T extends TSchema>(schema: T): T {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== "object") return node;
    const copy: Record<string | symbol, unknown> = {};
    for (const key of Reflect.ownKeys(node)) {
      if (key !== "format") copy[key] = strip((node as Record<string | symbol, unknown>)[key]);
    }
    return copy;
  };
  return strip(schema) as T;
}

export const ENDPOINTS: Endpoint[] = [
  { path: "/v1/health", methods: ["GET", "HEAD"], result: HealthResult },
  { path: "/v1/cidr-cover", methods: ["POST"], result: CidrCoverResult },
  { path: "/v1/cidr-subtract", methods: ["POST"], result: CidrSubtractResult },
  { path: "/v1/range-to-cidrs", methods: ["POST"], result: RangeToCidrsResult },
  { path: "/v1/certificate-bundle", methods: ["POST"], result: withoutFormats(CertificateBundleResult) },
  { path: "/v1/public-ip", methods: ["GET", "HEAD"], result: withoutFormats(PublicIpResult) },
  { path: "/docs", methods: ["GET", "HEAD"], result: null },
  { path: "/docs/json", methods: ["GET", "HEAD"], result: null },
];

export const POST_PATHS = ENDPOINTS.filter((e) => e.methods.includes("POST")).map((e) => e.path);

/** A valid request for each POST endpoint: the "next normal request" after a hostile one. */
export const NORMAL_BODIES: Record<string, unknown> = {
  "/v1/cidr-cover": { inputs: ["10.0.0.0/24", "10.0.1.7"] },
  "/v1/cidr-subtract": { include: ["10.0.0.0/8"], exclude: ["10.128.0.0/9"] },
  "/v1/range-to-cidrs": { start: "2001:db8::1", end: "2001:db8::ff" },
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * ENDPOINTS plus every other route the app serves (the web page and its assets, added as the
 * project grows) as non-JSON successes.
 */
export function endpointsOf(app: { routes: readonly { path: string; method: string }[] }): Endpoint[] {
  const all = [...ENDPOINTS];
  for (const route of app.routes) {
    const known = all.find((e) => e.path === route.path);
    if (known === undefined) all.push({ path: route.path, methods: [route.method], result: null });
    else if (!known.methods.includes(route.method)) known.methods.push(route.method);
  }
  return all;
}

/** Everything wrong with `response` (already read into `text`) as an answer to `method path`. */
export function problemsOf(
  method: string,
  path: string,
  response: Response,
  text: string,
  endpoints: readonly Endpoint[] = ENDPOINTS,
): string[] {
  const problems: string[] = [];
  const status = response.status;
  const where = `${method} ${path.slice(0, 80)} → ${status}`;
  if (status >= 500 && status !== 503) problems.push(`${where}: server error ${text.slice(0, 200)}`);
  if (status === 503 && !path.startsWith("/v1/public-ip")) problems.push(`${where}: 503 outside public-ip`);
  if (response.headers.get("x-content-type-options") !== "nosniff") problems.push(`${where}: no nosniff`);
  if (!REQUEST_ID.test(response.headers.get("x-request-id") ?? ""))
    problems.push(`${where}: bad X-Request-Id`);
  if (status === 204 || (method === "HEAD" && status < 400)) {
    if (text !== "") problems.push(`${where}: a body on HEAD/204`);
    return problems;
  }
  // A HEAD error keeps its envelope through app.handle; Bun drops it on the wire.
  if (method === "HEAD" && text === "") return problems;
  if (status >= 400) {
    problems.push(...envelopeProblems(where, response, text));
    return problems;
  }
  if (status !== 200) {
    problems.push(`${where}: unexpected success status`);
    return problems;
  }
  const endpoint = endpoints.find((e) => e.path === pathOnly(path));
  if (endpoint === undefined) {
    problems.push(`${where}: success on an unknown path`);
    return problems;
  }
  if (endpoint.result === null) {
    if (text.length === 0) problems.push(`${where}: empty page`);
    return problems;
  }
  const type = response.headers.get("content-type") ?? "";
  if (endpoint.path === "/v1/public-ip" && type.startsWith("text/plain")) {
    if (!/^[0-9a-f.:]+\n$/.test(text)) problems.push(`${where}: bad text body ${JSON.stringify(text)}`);
    return problems;
  }
  if (!type.startsWith("application/json")) problems.push(`${where}: success Content-Type ${type}`);
  const body = parse(text);
  if (body === undefined || !Value.Check(endpoint.result, body)) {
    problems.push(`${where}: success body off its schema: ${text.slice(0, 300)}`);
  } else {
    problems.push(...formatProblems(where, endpoint.path, body));
  }
  return problems;
}

const INSTANT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;

/** The `format` checks `withoutFormats` left out. */
function formatProblems(where: string, path: string, body: unknown): string[] {
  if (path === "/v1/public-ip") {
    const { family, ip } = body as { family: string; ip: string };
    return (family === "ipv4" ? isIPv4(ip) : isIPv6(ip))
      ? []
      : [`${where}: ${ip} is not an ${family} address`];
  }
  if (path === "/v1/certificate-bundle") {
    const result = body as { evaluatedAt: string; certificates: { notBefore: string; notAfter: string }[] };
    const instants = [result.evaluatedAt, ...result.certificates.flatMap((c) => [c.notBefore, c.notAfter])];
    return instants.filter((t) => !INSTANT.test(t)).map((t) => `${where}: ${t} is not an RFC 3339 instant`);
  }
  return [];
}

/** Problems with an error response: exact envelope, known code, the code's status, issue shape. */
export function envelopeProblems(where: string, response: Response, text: string): string[] {
  const problems: string[] = [];
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) {
    problems.push(`${where}: error Content-Type ${response.headers.get("content-type")}`);
  }
  const body = parse(text) as { error?: { code?: string; issues?: { path?: unknown }[] } } | undefined;
  if (body === undefined || !Value.Check(ErrorResponse, body)) {
    problems.push(`${where}: not the error envelope: ${text.slice(0, 300)}`);
    return problems;
  }
  const error = body.error!;
  const code = error.code as keyof typeof STATUS_OF;
  if (!Object.hasOwn(STATUS_OF, code)) problems.push(`${where}: unknown code ${code}`);
  else if (STATUS_OF[code] !== response.status) problems.push(`${where}: code ${code} with the wrong status`);
  for (const issue of error.issues ?? []) {
    if (!Array.isArray(issue.path)) problems.push(`${where}: an issue without a path`);
  }
  if ((error.issues?.length ?? 0) > 100) problems.push(`${where}: more than 100 issues`);
  if (response.status === 405 && !response.headers.get("allow")) problems.push(`${where}: 405 without Allow`);
  return problems;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pathOnly(path: string): string {
  const query = path.indexOf("?");
  return query === -1 ? path : path.slice(0, query);
}

/** Line number (1-based) of UTF-16 offset `offset`, counting LF, CRLF and lone CR as one break. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}
