/**
 * Admission on the real server (CONTRACT §1.7): on an otherwise idle server, a request whose work
 * fits its deadline is never refused. The cost estimate learns from signature checks only, so a
 * search-heavy bundle answered once is answered again (issue 24: a 16-certificate cross-signing
 * ring sent one request after another got one 200 and then eleven 503s).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crossSigningRing } from "../support/crafted-certificates.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
let ring: string;

beforeAll(async () => {
  ring = await crossSigningRing(15);
  server = await startServer({ IDLE_TIMEOUT_SECONDS: "1" });
});

afterAll(async () => {
  await server.stop();
});

describe("an idle server refuses no request that fits its deadline", () => {
  test("twelve 16-certificate cross-signing rings, one after another, are all answered", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      const response = await fetch(`${server.url}/v1/certificate-chain`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pem: ring }),
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array(12).fill(200));
  }, 60_000);
});
