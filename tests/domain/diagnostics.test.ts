/**
 * The one machinery of findings and problems (diagnostics.ts): its order against a slow, obvious
 * model (a sort key compared as a tuple), and its builder's field order.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DiagnosticCodes, type Severity } from "../../src/domain/certificates/diagnostics.ts";

const CODES = ["C_ONE", "C_TWO", "C_THREE"] as const;
type Code = (typeof CODES)[number];
const table = new DiagnosticCodes<Code>(CODES, { C_ONE: "error", C_TWO: "warning", C_THREE: "error" });

/** The contract's order as a tuple: severity rank, first index (none = -1), code rank, the rest (missing = -1). */
function sortKey(
  d: { code: Code; severity: Severity; certificateIndexes: number[] },
  width: number,
): number[] {
  const rest = d.certificateIndexes.slice(1);
  while (rest.length < width) rest.push(-1);
  return [
    ["error", "warning", "info"].indexOf(d.severity),
    d.certificateIndexes[0] ?? -1,
    CODES.indexOf(d.code),
    ...rest,
  ];
}

function compareTuples(a: number[], b: number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! - b[k]!;
  return 0;
}

const diagnostic = fc.record({
  code: fc.constantFrom(...CODES),
  severity: fc.constantFrom<Severity>("error", "warning", "info"),
  certificateIndexes: fc.array(fc.nat(5), { maxLength: 4 }),
});

describe("DiagnosticCodes", () => {
  test("compare agrees in sign with the tuple model", () => {
    fc.assert(
      fc.property(diagnostic, diagnostic, (a, b) => {
        expect(Math.sign(table.compare(a, b))).toBe(Math.sign(compareTuples(sortKey(a, 4), sortKey(b, 4))));
      }),
      { numRuns: 2000 },
    );
  });

  test("sort gives the model's order", () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 12 }), (list) => {
        const sorted = table.sort([...list]).map((d) => sortKey(d, 4));
        const model = list.map((d) => sortKey(d, 4)).sort(compareTuples);
        expect(sorted).toEqual(model);
      }),
    );
  });

  test("make: the table's severity unless one is stated, the head first, then the rest in its order", () => {
    const made = table.make("C_TWO", [3, 1], { observed: "o", evidence: { k: 1 }, nextAction: "n" });
    expect(JSON.stringify(made)).toBe(
      '{"code":"C_TWO","severity":"warning","certificateIndexes":[3,1],"observed":"o","evidence":{"k":1},"nextAction":"n"}',
    );
    expect(table.make("C_TWO", [], { observed: "o" }, "info").severity).toBe("info");
  });
});
