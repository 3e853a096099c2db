/**
 * `GET /v1/reference-roots` and `nettools roots` (CONTRACT §9.2): which reference store this
 * process judges `webpki` chains against — the built-in dated snapshot or an operator's file —
 * how many roots and distrust dates it holds, and a digest to compare two processes by.
 */
import type { ReferenceRootsInfo, RootStore } from "../ports.ts";
import { RequestRootStore } from "./trust-anchors.ts";

/**
 * The reference store's own description: a request's supplied roots are not part of it.
 * @throws Error when the store cannot describe itself (only a test double may lack `describe`)
 */
export function describeReferenceRoots(roots: RootStore): ReferenceRootsInfo {
  const reference = roots instanceof RequestRootStore ? roots.reference : roots;
  return reference.describe();
}
