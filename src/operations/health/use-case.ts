/** The use case of `health`, bound to its ports: The health probe: one frozen answer (the Responder serializes a frozen constant answer once). */
import type { Binding } from "../binding.ts";

/** Frozen: the Responder serializes a frozen constant answer once. */
const HEALTHY = Object.freeze({ status: "ok" as const });

export const bind: Binding<"health"> = () => () => HEALTHY;
