/**
 * The page's client asks a request shed with 503 and a short Retry-After once more, after it
 * (src/web/retry-overloaded.ts); everything else is answered as it came.
 */
import { describe, expect, test } from "bun:test";
import { MAX_RETRY_AFTER_S, retryingOnceWhenOverloaded } from "../../src/web/retry-overloaded.ts";

const overloaded = (retryAfter: string | null) =>
  new Response(JSON.stringify({ error: { code: "OVERLOADED", message: "busy" } }), {
    status: 503,
    headers: retryAfter === null ? {} : { "retry-after": retryAfter },
  });

/** A fetch answering `answers` in turn, recording the bodies it was sent; and the waits asked. */
function scripted(answers: Response[]) {
  const bodies: string[] = [];
  const waits: number[] = [];
  const fetchOnce = async (request: Request) => {
    bodies.push(await request.text());
    const next = answers.shift();
    if (next === undefined) throw new Error("asked more often than scripted");
    return next;
  };
  const fetch = retryingOnceWhenOverloaded(fetchOnce, async (ms) => {
    waits.push(ms);
  });
  return { fetch, bodies, waits };
}

const post = (body: string, signal?: AbortSignal) =>
  new Request("http://127.0.0.1/v1/certificate-chain", {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
    ...(signal === undefined ? {} : { signal }),
  });

describe("the page's client and a shed request", () => {
  test("503 with Retry-After 1: asked once more after 1 s, with the same body, and the second answer is the answer", async () => {
    const { fetch, bodies, waits } = scripted([overloaded("1"), new Response('{"ok":1}', { status: 200 })]);
    const response = await fetch(post('{"pem":"x"}'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"ok":1}');
    expect(bodies).toEqual(['{"pem":"x"}', '{"pem":"x"}']);
    expect(waits).toEqual([1000]);
  });

  test("only once: a second 503 is answered as it came", async () => {
    const { fetch, bodies, waits } = scripted([overloaded("1"), overloaded("1")]);
    const response = await fetch(post("{}"));
    expect(response.status).toBe(503);
    expect(bodies).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  test.each([
    ["no Retry-After", null],
    ["a Retry-After longer than the page waits", String(MAX_RETRY_AFTER_S + 1)],
    ["a Retry-After as a date", "Wed, 21 Oct 2026 07:28:00 GMT"],
    ["a Retry-After that is not a number", "soon"],
  ])("503 with %s: not asked again", async (_, retryAfter) => {
    const { fetch, bodies, waits } = scripted([overloaded(retryAfter)]);
    expect((await fetch(post("{}"))).status).toBe(503);
    expect(bodies).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  test.each([200, 400, 413, 429, 500, 502])(
    "status %d with Retry-After: answered as it came",
    async (status) => {
      const { fetch, bodies } = scripted([new Response("{}", { status, headers: { "retry-after": "1" } })]);
      expect((await fetch(post("{}"))).status).toBe(status);
      expect(bodies).toHaveLength(1);
    },
  );

  test("a request already aborted is not asked again", async () => {
    const controller = new AbortController();
    const { fetch, bodies } = scripted([overloaded("1")]);
    const request = post("{}", controller.signal);
    controller.abort();
    expect((await fetch(request)).status).toBe(503);
    expect(bodies).toHaveLength(1);
  });
});
