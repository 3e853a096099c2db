/**
 * The Swagger UI page in a real browser (issue 5): Debian's chromium, driven by playwright-core,
 * opens /docs on the real server with every request to anything but the loopback server
 * aborted, sees every API operation listed, uses "Try it out" on range-to-cidrs and reads the
 * 200 response in the page. A screenshot goes to test-output/docs-page.png for review.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { apiOperations } from "../docs/document.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { launchChromium } from "./chromium.ts";

const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const TIME_LIMIT_MS = 30_000;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
}, TIME_LIMIT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the docs page in Chromium, offline", () => {
  test(
    "lists every operation and runs range-to-cidrs with Try it out",
    async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const blocked: string[] = [];
      const problems: string[] = [];
      await page.route("**/*", (route) => {
        const { hostname } = new URL(route.request().url());
        if (hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
        blocked.push(route.request().url());
        return route.abort();
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        // The only expected console error is the browser's own 404 for /favicon.ico.
        if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) {
          problems.push(`console: ${message.text()}`);
        }
      });

      const response = await page.goto(`${server.url}/docs`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector(".opblock", { timeout: 15_000 });

      const listed = await page.$$eval(".opblock", (blocks) =>
        blocks.map((block) => {
          const method = block.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "";
          const path = block.querySelector(".opblock-summary-path")?.textContent?.trim() ?? "";
          return `${method} ${path.replace(/\u200b/g, "")}`;
        }),
      );
      expect(listed.sort()).toEqual(apiOperations());

      const operation = page.locator(".opblock", {
        has: page.locator(".opblock-summary-path", { hasText: "/v1/range-to-cidrs" }),
      });
      await operation.locator(".opblock-summary").click();
      await operation.locator("button.try-out__btn").click();
      const requestBody = JSON.parse(await operation.locator("textarea.body-param__text").inputValue());
      expect(requestBody).toEqual({ start: "192.0.2.10", end: "192.0.2.100" });
      await operation.locator("button.execute").click();

      const live = operation.locator(".live-responses-table tbody tr.response").first();
      await live.waitFor({ timeout: 10_000 });
      expect((await live.locator(".response-col_status").textContent())?.trim()).toBe("200");
      const shown = await live.locator(".response-col_description pre").first().textContent();
      expect(JSON.parse(shown ?? "")).toEqual({
        family: "ipv4",
        range: { first: "192.0.2.10", last: "192.0.2.100" },
        cidrs: [
          "192.0.2.10/31",
          "192.0.2.12/30",
          "192.0.2.16/28",
          "192.0.2.32/27",
          "192.0.2.64/27",
          "192.0.2.96/30",
          "192.0.2.100/32",
        ],
        cidrCount: 7,
        addressCount: "91",
      });

      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: `${OUTPUT}docs-page.png`, fullPage: true });
      expect(blocked).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    TIME_LIMIT_MS,
  );
});
