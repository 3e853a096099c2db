/** The use case of `crl`, bound to its ports: crl: a revocation list read and checked (src/domain/certificates/revocation.ts), with each run's verifier. */
import { inspectRevocationList } from "../../domain/certificates/revocation.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"crl"> = ({ decoder, revocationLists, clock, limits: { certificates } }) => {
  return (body, context) =>
    inspectRevocationList(
      body,
      { decoder, revocationLists, verifier: context.verifier, clock },
      certificates,
    );
};
