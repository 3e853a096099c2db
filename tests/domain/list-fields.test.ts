/**
 * Result fields whose list is written once as JSON (src/domain/list-fields.ts): an ordinary object
 * to every reader, the list made on its first read, and the written JSON offered to a serializer
 * only while nobody has read (or replaced) the field, so a change made to the list can never be
 * answered with stale JSON (issue 23: the cache keyed by the array, guarded by its length only,
 * could be fooled by `sort()` or `list[0] = …`).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { jsonBodyOf, jsonOf } from "../../src/adapters/http/responder.ts";
import { TextBatch } from "../../src/domain/ip/text.ts";
import { resultWith, unreadListsOf, WrittenList } from "../../src/domain/list-fields.ts";

interface Shape {
  family: string;
  cidrs: string[];
  count: string;
}

const written = (texts: string[]) => {
  let made = 0;
  const list = new WrittenList(JSON.stringify(texts), () => {
    made += 1;
    return [...texts];
  });
  return { list, made: () => made };
};

describe("resultWith", () => {
  test("an ordinary object: field order, JSON.stringify, keys, spread and equality", () => {
    const { list } = written(["10.0.0.0/8", "192.0.2.0/24"]);
    const result = resultWith<Shape>({ family: "ipv4", cidrs: list, count: "16777472" });
    expect(Object.keys(result)).toEqual(["family", "cidrs", "count"]);
    expect(JSON.stringify(result)).toBe(
      '{"family":"ipv4","cidrs":["10.0.0.0/8","192.0.2.0/24"],"count":"16777472"}',
    );
    expect({ ...result }).toEqual({
      family: "ipv4",
      cidrs: ["10.0.0.0/8", "192.0.2.0/24"],
      count: "16777472",
    });
  });

  test("the list is made once, on its first read, and the field is then the list itself", () => {
    const { list, made } = written(["10.0.0.0/8"]);
    const result = resultWith<Shape>({ family: "ipv4", cidrs: list, count: "1" });
    expect(made()).toBe(0);
    expect(jsonOf(result)).toBe('{"family":"ipv4","cidrs":["10.0.0.0/8"],"count":"1"}');
    expect(made()).toBe(0); // the serializer spliced the written JSON in
    const first = result.cidrs;
    expect(result.cidrs).toBe(first);
    expect(made()).toBe(1);
    expect(unreadListsOf(result)?.size).toBe(0);
  });

  test("a list changed after its read, or a field replaced, is serialized as it is now", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("10.0.0.0/8", "192.0.2.0/24", "2001:db8::/32"), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.constantFrom("sort", "reverse", "assign", "push", "replace"),
        (texts, change) => {
          const batchList = written(texts).list;
          const result = resultWith<Shape>({ family: "mixed", cidrs: batchList, count: "0" });
          if (change === "replace") result.cidrs = ["198.51.100.0/24"];
          else {
            const cidrs = result.cidrs;
            if (change === "sort") cidrs.sort();
            else if (change === "reverse") cidrs.reverse();
            else if (change === "assign") cidrs[0] = "203.0.113.0/24";
            else cidrs.push("203.0.113.0/24");
          }
          expect(jsonOf(result)).toBe(JSON.stringify(result));
        },
      ),
      { numRuns: 200, seed: 20261126 },
    );
  });

  test("nested results are asked in turn; other values go to JSON.stringify whole", () => {
    const inner = () =>
      resultWith<Shape>({ family: "ipv4", cidrs: written(["10.0.0.0/8"]).list, count: "1" });
    const outer = resultWith<{ a: Shape; b: Shape; equal: boolean }>({ a: inner(), b: inner(), equal: true });
    expect(jsonOf(outer)).toBe(JSON.stringify(outer));
    expect(jsonOf({ plain: [1, 2], nested: { x: "y" } })).toBe('{"plain":[1,2],"nested":{"x":"y"}}');
    expect(jsonOf([1, "two"])).toBe('[1,"two"]');
  });

  test("as a response body: the bytes of the same JSON, the lists' bytes never decoded", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.boolean(), (count, read) => {
        const batch = new TextBatch();
        for (let i = 0; i < count; i++) batch.add(6, 0x20010db8, i, 0, 0, 48);
        const result = resultWith<{ a: Shape; b: Shape }>({
          a: resultWith<Shape>({ family: "ipv6", cidrs: batch.toList(), count: String(count) }),
          b: resultWith<Shape>({ family: "ipv4", cidrs: written(["10.0.0.0/8"]).list, count: "1" }),
        });
        if (read) result.a.cidrs.reverse();
        const body = jsonBodyOf(result);
        const text = typeof body === "string" ? body : new TextDecoder().decode(body);
        expect(text).toBe(JSON.stringify(result));
        // Bytes exactly when a list nobody read was written as bytes (a batch's, not empty).
        expect(body instanceof Uint8Array).toBe(!read && count > 0);
      }),
      { numRuns: 100, seed: 20261126 },
    );
  });

  test("a batch's list as a field: the JSON is the batch's, the texts the same", () => {
    const batch = new TextBatch();
    for (let i = 0; i < 1024; i++) batch.add(4, 0, 0, 0, (10 << 24) | (i << 8), 24);
    const result = resultWith<Shape>({ family: "ipv4", cidrs: batch.toList(), count: "262144" });
    const spliced = jsonOf(result);
    expect(spliced).toBe(JSON.stringify(result));
    expect(result.cidrs[1023]).toBe("10.3.255.0/24");
  });
});
