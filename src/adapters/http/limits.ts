/**
 * The serving edge's own limit: the request deadline, with its reason. The admission queue's
 * settings are in admission.ts (`DEFAULT_ADMISSION`); the request and answer limits of the domain
 * (entries, PEM size, result size, the 64 KiB body) are in src/domain/limits.ts.
 */

/**
 * The longest a queued request (a certificate inspection) may take from arrival to answer when
 * the server is not given IDLE_TIMEOUT_SECONDS: ten seconds, the default of that setting, which
 * the docs promise bounds a request. Past it the answer is 503 OVERLOADED, never a late answer.
 */
export const DEFAULT_DEADLINE_MS = 10_000;
