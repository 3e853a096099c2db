/** The request schema of a local run (src/local/local-bounds.ts): the API's size bounds lifted, every other rule kept. */
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { withLocalBounds } from "../../src/local/local-bounds.ts";

const Request = Type.Object({
  entries: Type.Array(Type.String({ minLength: 1, maxLength: 5 }), { maxItems: 2 }),
  pem: Type.String({ maxLength: 4 }),
});

describe("withLocalBounds", () => {
  const local = withLocalBounds(Request);

  test("a list longer than the API's bound, and a long text field, pass", () => {
    const request = { entries: ["a", "b", "c"], pem: "longer than four" };
    expect(Value.Check(Request, request)).toBe(false);
    expect(Value.Check(local, request)).toBe(true);
  });

  test("an entry's own bounds stay, and so does every other rule", () => {
    expect(Value.Check(local, { entries: ["toolong"], pem: "" })).toBe(false);
    expect(Value.Check(local, { entries: [""], pem: "" })).toBe(false);
    expect(Value.Check(local, { entries: ["a"] })).toBe(false);
  });

  test("the API's schema is left as it was, and the local one is made once", () => {
    expect(Request.properties.entries.maxItems).toBe(2);
    expect(Request.properties.pem.maxLength).toBe(4);
    expect(withLocalBounds(Request)).toBe(local);
  });
});
