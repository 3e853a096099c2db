/**
 * The one place where our code is shaped for Elysia's compiler rather than written plainly
 * (issue 32; docs/decisions/0053-what-is-shaped-for-elysia.md). Everything else on the request
 * path uses Elysia's public API as documented.
 *
 * Elysia 1.4 guesses from a handler's *source text* whether it is asynchronous: a call right after
 * `=>` or `return` (`/(?:return|=>)\s?\S+\(/`), or the words async/await, reads as asynchronous,
 * and the route's compiled handler then `await`s it — a promise turn per request, measured at
 * several µs on the smallest answers. The route handler below returns a variable, not a call, so
 * the guess is "synchronous": Elysia maps what it returns as it comes (`mapCompactResponse`), a
 * Response at once and a Promise of one when it settles, which is right in both cases, and a GET
 * route is answered on the request's own turn.
 *
 * tests/http/elysia-route.test.ts compiles the application's routes and fails if Elysia awaits
 * any of their handlers: the first sign that an Elysia release changed the guess.
 */

/** Where a route's handler says which route answered (the access log's `route`). */
export interface RouteNaming {
  /** The route that named itself while the request being served ran (null: none matched). */
  named: string | null | undefined;
}

/** A request handler of the edge: a Fetch request in, a response out, never a rejection. */
type Handler = (request: Request) => Response | Promise<Response>;

/**
 * The Elysia handler of a route: it answers through `handle` and then names the route in `naming`
 * (read right after the handler returns, which it does on the request's own turn). `path` null is
 * the catch-all of what no route matches, which names itself.
 *
 * Keep its source as it is: `return` followed by a variable, no call after `=>`, no async/await.
 */
export function elysiaRoute(
  path: string | null,
  handle: Handler,
  naming: RouteNaming,
): (context: { request: Request }) => Response | Promise<Response> {
  return function answer(context) {
    const response = handle(context.request);
    if (path !== null) naming.named = path;
    return response;
  };
}
