/**
 * The one machinery behind the bundle's findings (CONTRACT §4.3) and the chain's problems
 * (CONTRACT §7.1, §8.1): a severity scale, an order and a builder, each parameterised by a closed
 * table of codes. A code set is declared once (its codes in table order, each with its severity);
 * everything that sorts or builds a diagnostic of that set goes through its `DiagnosticCodes`.
 */

export type Severity = "error" | "warning" | "info";

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The head every diagnostic starts with, in this field order. */
export interface Diagnostic<Code extends string> {
  code: Code;
  severity: Severity;
  certificateIndexes: number[];
}

/** A closed code set: its codes in table order (the tie-break order) and each code's severity. */
export class DiagnosticCodes<Code extends string> {
  private readonly rank: ReadonlyMap<Code, number>;

  constructor(
    /** Every code, in the order of the contract's table. */
    readonly codes: readonly Code[],
    /** The severity of each code (a rule may state another one for one diagnostic, as WRONG_ORDER does). */
    readonly severityOf: Readonly<Record<Code, Severity>>,
  ) {
    this.rank = new Map(codes.map((code, rank) => [code, rank]));
  }

  /**
   * One diagnostic: the head (code, severity, positions), then `rest` in its own key order, so the
   * JSON of every diagnostic of a set has the same field order.
   */
  make<Rest extends object>(
    code: Code,
    certificateIndexes: number[],
    rest: Rest,
    severity: Severity = this.severityOf[code],
  ): Diagnostic<Code> & Rest {
    return { code, severity, certificateIndexes, ...rest };
  }

  /**
   * The contract's order (CONTRACT §4.3, §7.1): severity (error, warning, info), then the first
   * certificate index (diagnostics with none first), then the code in table order, then the
   * remaining indexes compared one by one (a shorter list that is a prefix first).
   */
  readonly compare = (a: Diagnostic<Code>, b: Diagnostic<Code>): number => {
    const bySeverity = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
    if (bySeverity !== 0) return bySeverity;
    const byFirst = (a.certificateIndexes[0] ?? -1) - (b.certificateIndexes[0] ?? -1);
    if (byFirst !== 0) return byFirst;
    const byCode = this.rank.get(a.code)! - this.rank.get(b.code)!;
    if (byCode !== 0) return byCode;
    const length = Math.max(a.certificateIndexes.length, b.certificateIndexes.length);
    for (let k = 1; k < length; k++) {
      const left = a.certificateIndexes[k] ?? -1;
      const right = b.certificateIndexes[k] ?? -1;
      if (left !== right) return left - right;
    }
    return 0;
  };

  /** Sorts `diagnostics` in place into the contract's order and returns them. */
  sort<T extends Diagnostic<Code>>(diagnostics: T[]): T[] {
    return diagnostics.sort(this.compare);
  }
}
