/** Builds the app with fakes and sends requests through `app.handle` (no sockets). */

import { type AppDeps, buildApp } from "../../src/app.ts";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { fakeDecoder } from "../fakes/certificates.ts";
import { loopbackClient } from "../fakes/client-address.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

export const BASE = "http://localhost";

export function testApp(overrides: Partial<AppDeps> = {}) {
  const logger = createMemoryLogger();
  const app = buildApp({
    logger,
    cors: { kind: "any" },
    clientAddress: loopbackClient,
    clock: fixedClock("2026-06-01T12:00:00Z"),
    decoder: fakeDecoder([]),
    verifier: scriptedVerifier(),
    roots: noKnownRoots,
    // Each request handled in-process is its own turn of the event loop, as a request from a client
    // that waits for each answer is on the real server (ADR 37): sequential awaits alone never
    // reach the `setImmediate` that ends a turn. Tests of the budget itself pass their own.
    loopBudget: { afterTurn: queueMicrotask },
    ...overrides,
  });
  return { app, logger };
}

export interface CallOptions {
  body?: BodyInit | null;
  json?: unknown;
  headers?: Record<string, string>;
}

/** One request; `json` is serialized and sent as application/json. */
export async function call(
  app: { handle(request: Request): Promise<Response> },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body ?? null;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const init: RequestInit & { duplex?: "half" } = { method, headers, body };
  if (body instanceof ReadableStream) init.duplex = "half";
  return app.handle(new Request(BASE + path, init));
}

/** Reads a JSON body and asserts nothing; callers compare it. */
export async function jsonOf(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

/** The error envelope's `error` object of a response. */
export async function errorOf(response: Response): Promise<{
  code: string;
  message: string;
  issues?: { message: string; path: (string | number)[]; [key: string]: unknown }[];
}> {
  const body = (await jsonOf(response)) as { error: never };
  return body.error;
}
