/**
 * Result fields whose list the domain keeps as its own value (src/domain/list-fields.ts): an
 * ordinary object to every reader, the list made on its first read, and the value offered to an
 * encoder only while nobody has read (or replaced) the field, so a change made to the list can
 * never be answered from the stale value (issue 23: the cache keyed by the array, guarded by its
 * length only, could be fooled by `sort()` or `list[0] = …`).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { encodeDeferredLists } from "../../src/adapters/http/encoders/deferred-lists.ts";
import { PrefixList } from "../../src/domain/ip/prefix-list.ts";
import { DeferredList, deferredFieldsOf, resultWith } from "../../src/domain/list-fields.ts";

interface Shape {
  family: string;
  cidrs: string[];
  count: string;
}

/** A deferred list of given texts that counts how often it is made. */
class CountedList extends DeferredList<string> {
  made = 0;
  constructor(private readonly texts: string[]) {
    super();
  }
  get length(): number {
    return this.texts.length;
  }
  toArray(): string[] {
    this.made += 1;
    return [...this.texts];
  }
}

/** The encoder's answer as text, whether it wrote bytes or text. */
const encoded = (value: unknown): string => {
  const body = encodeDeferredLists(value);
  return typeof body === "string" ? body : new TextDecoder().decode(body);
};

describe("resultWith", () => {
  test("an ordinary object: field order, JSON.stringify, keys, spread and equality", () => {
    const list = new CountedList(["10.0.0.0/8", "192.0.2.0/24"]);
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
    const list = new CountedList(["10.0.0.0/8"]);
    const result = resultWith<Shape>({ family: "ipv4", cidrs: list, count: "1" });
    expect(deferredFieldsOf(result)?.cidrs).toBe(list);
    expect(list.made).toBe(0);
    const first = result.cidrs;
    expect(result.cidrs).toBe(first);
    expect(list.made).toBe(1);
    expect(deferredFieldsOf(result)?.cidrs).toBe(first); // no longer offered as the list
    expect(deferredFieldsOf({ cidrs: first })).toBeUndefined();
  });

  test("the bookkeeping is invisible: keys, spread, equality, structuredClone and JSON see the fields only", () => {
    const made = () =>
      resultWith<Shape>({ family: "ipv4", cidrs: new CountedList(["10.0.0.0/8"]), count: "1" });
    const plain = { family: "ipv4", cidrs: ["10.0.0.0/8"], count: "1" };
    expect(made()).toEqual(plain);
    expect(plain).toEqual(made());
    expect(made()).toStrictEqual(plain);
    expect({ ...made() }).toStrictEqual(plain);
    expect(structuredClone(made())).toStrictEqual(plain);
    expect(Object.getOwnPropertySymbols({ ...made() })).toEqual([]);
    expect(Object.getOwnPropertyNames(made())).toEqual(["family", "cidrs", "count"]);
    expect(Object.entries(made())).toEqual(Object.entries(plain));
    expect(JSON.stringify(made(), null, 2)).toBe(JSON.stringify(plain, null, 2));
    // Two results with a field of the same name share nothing but its accessor.
    const a = made();
    const b = resultWith<Shape>({ family: "ipv6", cidrs: new CountedList(["2001:db8::/32"]), count: "1" });
    b.cidrs = ["::/0"];
    expect([a.cidrs, b.cidrs]).toEqual([["10.0.0.0/8"], ["::/0"]]);
  });

  test("a list of prefixes is encoded from its words, never made into strings", () => {
    const prefixes = new PrefixList();
    for (let i = 0; i < 1024; i++) prefixes.add(4, 0, 0, 0, (10 << 24) | (i << 8), 24);
    let made = 0;
    const toArray = prefixes.toArray.bind(prefixes);
    prefixes.toArray = () => {
      made += 1;
      return toArray();
    };
    const result = resultWith<Shape>({ family: "ipv4", cidrs: prefixes, count: "262144" });
    const body = encodeDeferredLists(result);
    expect(body instanceof Uint8Array).toBe(true);
    expect(made).toBe(0);
    expect(new TextDecoder().decode(body as Uint8Array)).toBe(JSON.stringify(result));
    expect(made).toBe(1); // JSON.stringify read the field
    expect(result.cidrs[1023]).toBe("10.3.255.0/24");
  });

  test("a list changed after its read, or a field replaced, is encoded as it is now", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("10.0.0.0/8", "192.0.2.0/24", "2001:db8::/32"), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.constantFrom("sort", "reverse", "assign", "push", "replace"),
        (texts, change) => {
          const result = resultWith<Shape>({ family: "mixed", cidrs: new CountedList(texts), count: "0" });
          if (change === "replace") result.cidrs = ["198.51.100.0/24"];
          else {
            const cidrs = result.cidrs;
            if (change === "sort") cidrs.sort();
            else if (change === "reverse") cidrs.reverse();
            else if (change === "assign") cidrs[0] = "203.0.113.0/24";
            else cidrs.push("203.0.113.0/24");
          }
          expect(encoded(result)).toBe(JSON.stringify(result));
        },
      ),
      { numRuns: 200, seed: 20261126 },
    );
  });

  test("nested results are asked in turn; other values go to JSON.stringify whole", () => {
    const inner = () =>
      resultWith<Shape>({ family: "ipv4", cidrs: new CountedList(["10.0.0.0/8"]), count: "1" });
    const outer = resultWith<{ a: Shape; b: Shape; equal: boolean }>({ a: inner(), b: inner(), equal: true });
    expect(encoded(outer)).toBe(JSON.stringify(outer));
    expect(encoded({ plain: [1, 2], nested: { x: "y" } })).toBe('{"plain":[1,2],"nested":{"x":"y"}}');
    expect(encoded([1, "two"])).toBe('[1,"two"]');
  });

  test("nested and read in part: the same JSON as JSON.stringify", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.boolean(), (count, read) => {
        const prefixes = new PrefixList();
        for (let i = 0; i < count; i++) prefixes.add(6, 0x20010db8, i, 0, 0, 48);
        const result = resultWith<{ a: Shape; b: Shape }>({
          a: resultWith<Shape>({ family: "ipv6", cidrs: prefixes, count: String(count) }),
          b: resultWith<Shape>({ family: "ipv4", cidrs: new CountedList(["10.0.0.0/8"]), count: "1" }),
        });
        if (read) result.a.cidrs.reverse();
        expect(encoded(result)).toBe(JSON.stringify(result));
      }),
      { numRuns: 100, seed: 20261126 },
    );
  });
});
