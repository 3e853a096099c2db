/**
 * The prose of POST /v1/cidr-usage for the OpenAPI document: what its row in the operations table
 * (src/contract/operations.ts) does not say. Every example is a real exchange, replayed by
 * tests/docs/openapi.test.ts.
 */
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";

export const docs: OperationDoc = {
  summary: "How full a pool is: used, free, the largest free block, how many of each size fit",
  description:
    "The union of `pool` (one family) against the union of `used`: exact address counts (`total`, `used` inside the pool, `free`, and `outsidePool` for used addresses the pool does not hold, which are otherwise ignored), `percentUsed` (two decimals, rounded half up), `largestFree` (the largest aligned free CIDR, the lowest on a tie; null when the pool is full) and `freeBySize`: for each prefix length from `largestFree`'s to 32 or 128 (at most 64 lengths), how many aligned blocks of that length fit in the free space, counted from the free intervals without enumerating (a `/0` pool costs what a `/24` does).",
  tag: "CIDR",
  resultDescription:
    "The counts as decimal strings, the percentage, the largest free block and the free blocks by size.",
  errors: { 400: ["MIXED_ADDRESS_FAMILIES"] },
  examples: {
    pool: {
      summary: "A /22 with a /24 and a /26 used, and a used block outside it",
      request: { pool: ["10.0.0.0/22"], used: ["10.0.0.0/24", "10.0.1.64/26", "192.0.2.0/24"] },
      status: 200,
      response: {
        total: "1024",
        used: "320",
        free: "704",
        outsidePool: "256",
        percentUsed: 31.25,
        largestFree: "10.0.2.0/23",
        freeBySize: [
          { prefixLength: 23, blocks: "1" },
          { prefixLength: 24, blocks: "2" },
          { prefixLength: 25, blocks: "5" },
          { prefixLength: 26, blocks: "11" },
          { prefixLength: 27, blocks: "22" },
          { prefixLength: 28, blocks: "44" },
          { prefixLength: 29, blocks: "88" },
          { prefixLength: 30, blocks: "176" },
          { prefixLength: 31, blocks: "352" },
          { prefixLength: 32, blocks: "704" },
        ],
      },
    },
    full: {
      summary: "A full pool",
      request: { pool: ["192.0.2.0/24"], used: ["192.0.2.0/25", "192.0.2.128/25"] },
      status: 200,
      response: {
        total: "256",
        used: "256",
        free: "0",
        outsidePool: "0",
        percentUsed: 100,
        largestFree: null,
        freeBySize: [],
      },
    },
  },
};
