/**
 * The body reader against its slow, obvious model (tests/support/json-body-model.ts): the same
 * answer for every body — INVALID_JSON exactly where `JSON.parse` fails, the nesting cap, every
 * issue up to 100 — while a body full of containers is neither built nor walked (CONTRACT §1, §1.7).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { bodyReader, bodyTimeLimitMs, inspectedDepth } from "../../src/adapters/http/api-routes.ts";
import { readJsonBytes, scanJson } from "../../src/adapters/http/json-body.ts";
import { envelopeOf } from "../../src/contract/envelope.ts";
import { HttpError } from "../../src/contract/errors.ts";
import { OPERATION_LIST } from "../../src/contract/operations.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { modelOutcome } from "../support/json-body-model.ts";
import { errorOf, testApp } from "./helpers.ts";

const encode = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON-ish text: pieces of valid JSON, and the bytes that most often break it. */
const jsonish = fc
  .array(
    fc.oneof(
      fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", " ", "\n", "\t", "\r", "\f", "\u00a0"),
      fc.constantFrom("0", "-", "1", "01", "1.", ".5", "1e", "1e+", "2E-3", "-0", "1.5e9", "+1", "0x1"),
      fc.constantFrom("true", "false", "null", "tru", "nul", "True", "NaN", "Infinity"),
      fc.constantFrom(
        '"a"',
        '"\\u00e9"',
        '"\\u12"',
        '"\\x"',
        '"\\/"',
        '"é"',
        '"\u0001"',
        '"\\"',
        '"a\\"b"',
        "\uFEFF",
      ),
      fc.json(),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(""));

describe("scanJson accepts exactly what JSON.parse accepts", () => {
  test("property: on JSON-ish text (with and without a byte-order mark)", () => {
    fc.assert(
      fc.property(jsonish, fc.boolean(), (text, bom) => {
        const bytes = encode(bom ? `\uFEFF${text}` : text);
        const decoded = new TextDecoder().decode(bytes); // drops one leading BOM, as the reader's decoder does
        expect(scanJson(bytes, Number.POSITIVE_INFINITY) !== null).toBe(parses(decoded));
      }),
      { numRuns: RUNS * 10 },
    );
  });

  test("property: on valid JSON values, with the nesting depth JSON.stringify shows", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const scan = scanJson(encode(text), Number.POSITIVE_INFINITY);
        let depth = 0;
        let deepest = 0;
        for (const char of text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
          if (char === "[" || char === "{") deepest = Math.max(deepest, ++depth);
          else if (char === "]" || char === "}") depth--;
        }
        expect(scan).toEqual({ depth: deepest, opaque: 0 });
      }),
      { numRuns: RUNS },
    );
  });

  test.each([
    ["[]", true],
    ["{}", true],
    [' {"a" : [1, -0.5e+3, true, null, "\\ud800"]} ', true],
    ["[1,]", false],
    ['{"a":1,}', false],
    ["[01]", false],
    ['{"a" 1}', false],
    ["[1] [2]", false],
    ['"\t"', false],
    ["", false],
    ["[".repeat(40) + "]".repeat(39), false],
  ])("%j parses: %p", (text, valid) => {
    expect(scanJson(encode(text), Number.POSITIVE_INFINITY) !== null).toBe(valid);
    expect(parses(text)).toBe(valid);
  });
});

/** Bodies that reach the scan: more than 32 containers, valid or broken, of every shape the API sees. */
function bodies(field: string) {
  const element = fc.oneof(
    fc.constantFrom("{}", "[]", '{"a":[1,{}]}', "[[[]]]", "0", "null", '""', '"10.0.0.1"', '"::1"', '"x"'),
    fc.json({ maxDepth: 3 }),
  );
  return fc
    .record({
      elements: fc.array(element, { minLength: 33, maxLength: 300 }),
      extra: fc.constantFrom(
        "",
        ',"extra":[{}]',
        ',"__proto__":{"a":[]}',
        `,"${field}":[{}]`,
        ',"leafIndex":{}',
        ',"start":[]',
      ),
      tail: fc.constantFrom("", "", "", "x", "]", ",", "}", "\u0000"),
      deep: fc.constantFrom(0, 0, 31, 33, 2000),
    })
    .map(({ elements, extra, tail, deep }) => {
      const list = elements.join(",");
      const nested = deep === 0 ? "" : `,"nested":${"[".repeat(deep)}${"]".repeat(deep)}`;
      return `{"${field}":[${list}]${extra}${nested}}${tail}`;
    });
}

async function readerOutcome(
  read: (request: Request) => Promise<unknown>,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<unknown> {
  try {
    const value = await read(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bytes,
      }),
    );
    return { value };
  } catch (error) {
    if (error instanceof DomainError || error instanceof HttpError) return envelopeOf(error);
    throw error;
  }
}

describe("the body reader gives the model's answer for every request schema", () => {
  for (const operation of OPERATION_LIST) {
    const schema = operation.request;
    if (schema === null) continue;
    const read = bodyReader(schema);
    const field =
      Object.keys((schema as unknown as { properties: Record<string, unknown> }).properties)[0] ?? "x";
    test(`${operation.id}: containers beyond level ${inspectedDepth(schema)} are read as null without changing any issue`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies(field), async (body) => {
          const bytes = encode(body);
          expect(await readerOutcome(read, bytes)).toEqual(modelOutcome(bytes, schema));
        }),
        { numRuns: RUNS },
      );
    });
  }

  test("the attack's body: 21,000 `{}` entries get the model's 100 issues and its message", async () => {
    const cover = OPERATION_LIST.find((operation) => operation.id === "cidrCover");
    if (cover?.request == null) throw new Error("cidrCover has a request schema");
    const bytes = encode(`{"inputs":[${Array(21_000).fill("{}").join(",")}]}`);
    const outcome = await readerOutcome(bodyReader(cover.request), bytes);
    expect(outcome).toEqual(modelOutcome(bytes, cover.request));
    expect((outcome as { error: { issues: unknown[] } }).error.issues).toHaveLength(100);
  });

  test("a body nesting too deep is refused as INVALID_INPUT at path [] without being parsed, even 65,000 levels", () => {
    const bytes = encode(`${"[".repeat(32_768)}${"]".repeat(32_768)}`);
    expect(() => readJsonBytes(bytes, 2)).toThrow("more than 32 levels deep");
    const broken = encode(`${"[".repeat(32_768)}${"]".repeat(32_767)}`);
    expect(() => readJsonBytes(broken, 2)).toThrow("The request body is not valid JSON.");
  });
});

describe("a body must arrive within the request deadline, less a margin (ADR 19)", () => {
  test("bodyTimeLimitMs: a quarter of the deadline, at most 250 ms, before it", () => {
    expect(bodyTimeLimitMs(10_000)).toBe(9_750);
    expect(bodyTimeLimitMs(1_000)).toBe(750);
    expect(bodyTimeLimitMs(400)).toBe(300);
  });

  test("through the app: a body still arriving when its time is up gets 400 INVALID_JSON and Connection: close", async () => {
    const { app } = testApp({ admission: { deadlineMs: 400 } });
    let pulls = 0;
    // A body that keeps arriving, a few bytes at a time, and would never end.
    const steady = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        await Bun.sleep(20);
        controller.enqueue(encode(pulls === 1 ? '{"inputs":["10.0.0.1"' : ',"10.0.0.1"'));
      },
    });
    const start = performance.now();
    const response = await app.handle(
      new Request("http://localhost/v1/cidr-cover", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: steady,
      }),
    );
    expect(performance.now() - start).toBeGreaterThanOrEqual(295);
    expect(response.status).toBe(400);
    expect(response.headers.get("connection")).toBe("close");
    expect(await errorOf(response)).toEqual({
      code: "INVALID_JSON",
      message: "The request body did not arrive in full within 0.3 s; send it faster, or a smaller one.",
    });
    expect(pulls).toBeGreaterThan(3);
  });

  test("through the app: bodies on their way at once, each refused when its own time is up, one arriving in time answered", async () => {
    const { app } = testApp({ admission: { deadlineMs: 400 } });
    const never = () => new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => {}) });
    const late = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await Bun.sleep(50);
        controller.enqueue(encode('{"inputs":["10.0.0.1"]}'));
        controller.close();
      },
    });
    const post = (body: ReadableStream<Uint8Array>) =>
      app.handle(
        new Request("http://localhost/v1/cidr-cover", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
    const timed = async (body: ReadableStream<Uint8Array>) => {
      const start = performance.now();
      const response = await post(body);
      return { response, start, end: performance.now() };
    };
    const first = timed(never());
    const arriving = timed(late);
    await Bun.sleep(100);
    const second = timed(never());
    const [a, b, c] = await Promise.all([first, arriving, second]);
    expect(b.response.status).toBe(200);
    expect(b.end - b.start).toBeLessThan(295);
    for (const refused of [a, c]) {
      expect(refused.response.status).toBe(400);
      expect(refused.end - refused.start).toBeGreaterThanOrEqual(295);
      expect((await errorOf(refused.response)).code).toBe("INVALID_JSON");
    }
    // The second was refused on its own time, not with the first.
    expect(c.end - a.end).toBeGreaterThanOrEqual(90);
  });

  test("through the app: a body that arrives in time is read as usual, and the connection stays open", async () => {
    const { app } = testApp({ admission: { deadlineMs: 400 } });
    const response = await app.handle(
      new Request("http://localhost/v1/cidr-cover", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"inputs":["10.0.0.1"]}',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBeNull();
  });
});
