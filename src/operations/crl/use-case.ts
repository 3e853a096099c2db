/** The use case of `crl`, bound to its ports: a revocation list read and checked (src/domain/certificates/revocation.ts), with each run's verifier. */
import { inspectRevocationList } from "../../domain/certificates/revocation.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"crl"> =
  ({ deps, limits: { certificates } }) =>
  (body, context) =>
    inspectRevocationList(
      body,
      {
        decoder: deps.decoder,
        revocationLists: deps.revocationLists,
        verifier: context.verifier,
        clock: deps.clock,
      },
      certificates,
    );
