/** The use case of `certificateChain`, bound to its ports: a chain built to a root (src/domain/certificates/chain.ts), with each run's verifier and budget. */
import { buildCertificateChain } from "../../domain/certificates/chain.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"certificateChain"> =
  ({ deps, limits: { certificates } }) =>
  (body, context) =>
    buildCertificateChain(
      body,
      { ...deps, verifier: context.verifier, ...(context.budget ? { budget: context.budget } : {}) },
      certificates,
    );
