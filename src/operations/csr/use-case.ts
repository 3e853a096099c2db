/** The use case of `csr`, bound to its ports: csr: a certification request inspected (src/domain/certificates/csr.ts), with each run's verifier. */
import { inspectCertificationRequest } from "../../domain/certificates/csr.ts";
import type { Binding } from "../binding.ts";

export const bind: Binding<"csr"> = ({ decoder, limits: { certificates } }) => {
  return (body, context) =>
    inspectCertificationRequest(body, { decoder, verifier: context.verifier }, certificates);
};
