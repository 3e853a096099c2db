/**
 * The page's script carries the client with build-time validators (src/web/generated-contract.ts,
 * issue 19): no TypeBox in it, nothing compiled at run time, yet a wrong answer is still caught.
 */
import { describe, expect, test } from "bun:test";
import { bundleWebAssets } from "../../src/web/bundle.ts";

describe("the page's script", () => {
  const { js } = bundleWebAssets();

  test("holds none of TypeBox (its error messages are the trace) and no run-time compiling", () => {
    expect(js).not.toContain("Expected union value");
    expect(js).not.toContain("Expected required property");
    expect(js).not.toMatch(/new Function|\beval\(/);
  });

  test("holds the generated checkers and the mismatch finder", () => {
    // TypeBox's generated checks read properties this way; the finder writes this message.
    expect(js).toContain("Object.getOwnPropertyNames(");
    expect(js).toContain("is not allowed");
  });
});
