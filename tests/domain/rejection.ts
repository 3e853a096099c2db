/** The DomainError a call throws; fails the test when it throws nothing or something else. */
import { DomainError } from "../../src/domain/errors.ts";

export function rejection(f: () => unknown): DomainError {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected a DomainError");
}
