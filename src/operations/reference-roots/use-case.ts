/** The use case of `referenceRoots`, bound to its ports: the reference root store described (src/domain/certificates/reference-roots.ts). */
import { describeReferenceRoots } from "../../domain/certificates/reference-roots.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"referenceRoots"> =
  ({ deps }) =>
  () =>
    describeReferenceRoots(deps.roots);
