/**
 * Inbound adapter for the three CIDR operations: schema-validated JSON in, domain call, result out.
 */
import { Elysia } from "elysia";
import { coverCidrs } from "../../domain/cidr/cover.ts";
import { rangeToCidrs } from "../../domain/cidr/range-to-cidrs.ts";
import { subtractCidrs } from "../../domain/cidr/subtract.ts";
import {
  CidrCoverRequest,
  CidrCoverResult,
  CidrSubtractRequest,
  CidrSubtractResult,
  RangeToCidrsRequest,
  RangeToCidrsResult,
} from "./schemas.ts";

/** Routes POST /v1/cidr-cover, /v1/cidr-subtract and /v1/range-to-cidrs. */
export const cidrRoutes = () =>
  new Elysia({ name: "cidr-routes", normalize: false })
    .post("/v1/cidr-cover", ({ body }) => coverCidrs(body.inputs), {
      parse: "json",
      body: CidrCoverRequest,
      response: { 200: CidrCoverResult },
      detail: { summary: "Smallest single CIDR covering every input", tags: ["CIDR"] },
    })
    .post(
      "/v1/cidr-subtract",
      // The 1000-entry total across both lists is checked by the use case itself.
      ({ body }) => subtractCidrs(body.include, body.exclude),
      {
        parse: "json",
        body: CidrSubtractRequest,
        response: { 200: CidrSubtractResult },
        detail: { summary: "Included address space minus excluded ranges, as minimal CIDRs", tags: ["CIDR"] },
      },
    )
    .post("/v1/range-to-cidrs", ({ body }) => rangeToCidrs(body.start, body.end), {
      parse: "json",
      body: RangeToCidrsRequest,
      response: { 200: RangeToCidrsResult },
      detail: { summary: "Inclusive address range as a minimal CIDR list", tags: ["CIDR"] },
    });
