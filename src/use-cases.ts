/**
 * Where the composition roots found the use cases before operations became folders: now the
 * assembly of src/operations/ (src/operations/use-cases.ts, docs/decisions/0059). Kept as a
 * re-export so that its importers need not move at once; new code imports the assembly.
 */
export {
  bindUseCases,
  type Scope,
  type UseCaseContext,
  type UseCaseDeps,
  type UseCases,
} from "./operations/use-cases.ts";
