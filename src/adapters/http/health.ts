/** Inbound adapter for the platform health probe (CONTRACT §1.4): touches no dependency. */
import { Elysia } from "elysia";
import { HealthResult } from "./schemas.ts";

const HEALTHY = { status: "ok" as const };

/** Routes GET /v1/health. */
export const healthRoutes = () =>
  new Elysia({ name: "health-routes", normalize: false }).get("/v1/health", () => HEALTHY, {
    response: { 200: HealthResult },
    detail: { summary: "Liveness and readiness probe", tags: ["Platform"] },
  });
