/**
 * The page's own requests come in pairs (a bundle and its chain, sent together), and a busy server
 * may shed one of them with 503 `OVERLOADED` and `Retry-After: 1` (CONTRACT §1.7): the answer a
 * client is told to retry after a second. The page's client asks such a request once more, after
 * the time the server gave, instead of showing the user "overloaded" for a pair it sent itself.
 * Only once, only for a 503 with a `Retry-After` of whole seconds up to {@link MAX_RETRY_AFTER_S},
 * and within the client's own time limit (the request keeps its abort signal). Anything else is
 * answered as it came.
 */

/** The longest `Retry-After` the page waits for, in seconds; a longer one is shown as it is. */
export const MAX_RETRY_AFTER_S = 2;

/** A fetch as the client calls it. */
export type FetchOnce = (request: Request) => Promise<Response>;

/**
 * `fetchOnce`, asking a request once more when it was answered 503 with a `Retry-After` of at most
 * {@link MAX_RETRY_AFTER_S} seconds; `wait` sleeps (a timer in the page, a recorder in the tests).
 */
export function retryingOnceWhenOverloaded(
  fetchOnce: FetchOnce,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): FetchOnce {
  return async (request) => {
    const again = request.clone();
    const response = await fetchOnce(request);
    if (response.status !== 503) return response;
    const seconds = retryAfterSeconds(response.headers.get("retry-after"));
    if (seconds === null || again.signal.aborted) return response;
    await response.body?.cancel();
    await wait(seconds * 1000);
    return fetchOnce(again);
  };
}

/** `Retry-After` as whole seconds from 0 to {@link MAX_RETRY_AFTER_S}; null for anything else (a date, a longer wait). */
function retryAfterSeconds(value: string | null): number | null {
  if (value === null || !/^[0-9]$/.test(value)) return null;
  const seconds = Number(value);
  return seconds <= MAX_RETRY_AFTER_S ? seconds : null;
}
