/**
 * Composition root of the server: wires the adapters once, at start, and is never called per
 * request. It binds each operation of the wire contract to its use case (src/operations/, with
 * the API's limits), builds the Responder with its failure mapper, the admission lanes (which own
 * the request deadline), one route per row of the operations table, the page and the docs, and
 * hands them to the one Elysia application (src/adapters/http/application.ts) that serves them.
 */
import { DerRevocationListDecoder } from "./adapters/crypto/crl-decoder.ts";
import {
  type AdmissionOptions,
  certificateLanes,
  DEFAULT_ADMISSION,
  DEFAULT_LOOP_BUDGET,
  LoopBudget,
  type LoopBudgetOptions,
} from "./adapters/http/admission.ts";
import { apiRoutes } from "./adapters/http/api-routes.ts";
import { type EdgeLog, httpApplication } from "./adapters/http/application.ts";
import { docsRoutes } from "./adapters/http/docs.ts";
import { DEFAULT_DEADLINE_MS } from "./adapters/http/limits.ts";
import { documentComponents } from "./adapters/http/openapi-document.ts";
import type { RequestLimiter } from "./adapters/http/rate-limit.ts";
import { type CorsPolicy, failureMapper, Responder } from "./adapters/http/responder.ts";
import { webRoutes } from "./adapters/http/web.ts";
import { OPERATION_LIST } from "./contract/operations.ts";
import type {
  CertificateDecoder,
  ClientAddressSource,
  Clock,
  NetworkFacts,
  RevocationListDecoder,
  RootStore,
  SignatureVerifier,
} from "./domain/ports.ts";
import { OPERATION_DOCS } from "./operations/docs.ts";
import { bindUseCases } from "./operations/use-cases.ts";

export type { CorsPolicy } from "./adapters/http/responder.ts";

/** Everything the application needs from the outside world. */
export interface AppDeps {
  logger: EdgeLog;
  cors: CorsPolicy;
  clientAddress: ClientAddressSource;
  clock: Clock;
  decoder: CertificateDecoder;
  verifier: SignatureVerifier;
  roots: RootStore;
  /** The GeoIP databases behind public-ip's network facts (CONTRACT §8.10); none when absent. */
  networkFacts?: NetworkFacts;
  /** The CRL reader of POST /v1/crl; the strict DER reader when absent (it has no outside effects). */
  revocationLists?: RevocationListDecoder;
  /** Makes a fresh request id; injectable for deterministic tests. */
  newRequestId?: () => string;
  /** Per-client limit (RATE_LIMIT_PER_MINUTE); absent or null means no limit (CONTRACT §1.5). */
  rateLimiter?: RequestLimiter | null;
  /** The certificate admission queue's settings; the longest a request may take is `deadlineMs`. */
  admission?: Partial<AdmissionOptions>;
  /** The event loop's budget for the CIDR operations (CONTRACT §1.7; ADR 37). */
  loopBudget?: Partial<LoopBudgetOptions>;
  /** Access-log lines carry the client's address (LOG_CLIENT_ADDRESS; off when absent). */
  logClientAddress?: boolean;
}

/**
 * Builds the whole application. Tests call `buildApp(fakes).handle(new Request(...))`;
 * `server.ts` calls `app.listen`.
 */
export function buildApp(deps: AppDeps) {
  const responder = new Responder(deps.cors, deps.newRequestId ?? (() => crypto.randomUUID()));
  const fail = failureMapper(responder, deps.logger);
  const lanes = certificateLanes(
    { ...DEFAULT_ADMISSION, deadlineMs: DEFAULT_DEADLINE_MS, ...deps.admission },
    deps.verifier,
  );
  const loopBudget = new LoopBudget({
    ...DEFAULT_LOOP_BUDGET,
    ...(deps.admission?.observer === undefined ? {} : { observer: deps.admission.observer }),
    ...deps.loopBudget,
  });
  const api = apiRoutes({
    useCases: bindUseCases(
      {
        clock: deps.clock,
        decoder: deps.decoder,
        roots: deps.roots,
        networkFacts: deps.networkFacts,
        revocationLists: deps.revocationLists ?? new DerRevocationListDecoder(),
      },
      "api",
    ),
    docs: OPERATION_DOCS,
    responder,
    fail,
    lanes,
    loopBudget,
    clientAddress: deps.clientAddress,
    verifier: deps.verifier,
  });
  const { app, traffic } = httpApplication({
    api,
    plugins: [docsRoutes(responder, fail, documentComponents(OPERATION_LIST)), webRoutes(responder, fail)],
    responder,
    fail,
    log: deps.logger,
    clientAddress: deps.clientAddress,
    rateLimiter: deps.rateLimiter ?? null,
    logClientAddress: deps.logClientAddress ?? false,
  });
  /** Every method and path served (HEAD implied by GET), for tests that walk the routes. */
  const routes = [...traffic.paths].flatMap(([path, methods]) =>
    methods.filter((method) => method !== "HEAD").map((method) => ({ path, method })),
  );
  return { handle: app.handle, app, traffic, routes, api };
}

export type App = ReturnType<typeof buildApp>;
