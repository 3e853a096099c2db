/**
 * The one shape we keep for Elysia's compiler (src/adapters/http/elysia-route.ts): every route of
 * the application must compile to a handler that calls ours without awaiting it, and a GET route
 * to a handler that is not even asynchronous (answered on the request's own turn). This reads the
 * handler Elysia composes for each route (`router.history[i].compile()`, internal to Elysia 1.4),
 * so it fails when an Elysia release changes the guess, or the place where the compiled handler
 * can be read: either way, the shape must be looked at again.
 */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { elysiaRoute } from "../../src/adapters/http/elysia-route.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { testApp } from "./helpers.ts";

interface ComposedRoute {
  method: string;
  path: string;
  compile(): (...args: unknown[]) => unknown;
}

/** The routes Elysia has composed, from its router's history (Elysia 1.4's internals). */
function composedRoutes(app: unknown): ComposedRoute[] {
  const history = (app as { router?: { history?: ComposedRoute[] } }).router?.history;
  if (!Array.isArray(history))
    throw new Error("Elysia no longer keeps router.history: look at elysia-route.ts again");
  return history;
}

/** Whether the compiled handler awaits the route's handler (the guess said "asynchronous"). */
const awaitsHandler = (source: string) => /await\s+handler\s*\(/.test(source);

describe("routes compiled synchronously by Elysia", () => {
  test("every operation's route calls its handler without await; GET routes compile to a plain function", () => {
    const { app } = testApp();
    const routes = composedRoutes(app.app);
    for (const operation of OPERATION_LIST) {
      const route = routes.find((r) => r.method === operation.method && r.path === operation.path);
      expect(route).toBeDefined();
      const compiled = route!.compile();
      const source = String(compiled);
      expect(source).toContain("handler(c)");
      expect({ path: operation.path, awaits: awaitsHandler(source) }).toEqual({
        path: operation.path,
        awaits: false,
      });
      if (operation.method === "GET") {
        expect({ path: operation.path, kind: compiled.constructor.name }).toEqual({
          path: operation.path,
          kind: "Function",
        });
      }
    }
  });

  test("the check can fail: a handler that returns a call is compiled to an await", () => {
    const handle = (request: Request) => new Response(request.method);
    const naming = { named: undefined as string | null | undefined };
    const app = new Elysia({ normalize: false })
      .get("/shaped", elysiaRoute("/shaped", handle, naming))
      .get("/plain", (context) => handle(context.request));
    const [shaped, plain] = ["/shaped", "/plain"].map((path) =>
      String(
        composedRoutes(app)
          .find((r) => r.path === path)!
          .compile(),
      ),
    );
    expect(awaitsHandler(plain!)).toBe(true);
    expect(awaitsHandler(shaped!)).toBe(false);
  });

  test("the shaped route answers with its handler's response and names itself", async () => {
    const naming = { named: undefined as string | null | undefined };
    const answer = elysiaRoute("/x", () => new Response("ok"), naming);
    const response = answer({ request: new Request("http://localhost/x") });
    expect(response).toBeInstanceOf(Response);
    expect(await (response as Response).text()).toBe("ok");
    expect(naming.named).toBe("/x");
    const unnamed = { named: undefined as string | null | undefined };
    elysiaRoute(null, () => new Response(""), unnamed)({ request: new Request("http://localhost/y") });
    expect(unnamed.named).toBeUndefined();
  });
});
