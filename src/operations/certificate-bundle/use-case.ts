/** The use case of `certificateBundle`, bound to its ports: a PEM bundle inspected (src/domain/certificates/inspect.ts), with each run's verifier. */
import { inspectCertificateBundle } from "../../domain/certificates/inspect.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"certificateBundle"> =
  ({ deps, limits: { certificates } }) =>
  (body, context) =>
    inspectCertificateBundle(body, { ...deps, verifier: context.verifier }, certificates);
