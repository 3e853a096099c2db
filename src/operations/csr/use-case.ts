/** The use case of `csr`, bound to its ports: a certification request inspected (src/domain/certificates/csr.ts), with each run's verifier. */
import { inspectCertificationRequest } from "../../domain/certificates/csr.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"csr"> =
  ({ deps, limits: { certificates } }) =>
  (body, context) =>
    inspectCertificationRequest(body, { decoder: deps.decoder, verifier: context.verifier }, certificates);
