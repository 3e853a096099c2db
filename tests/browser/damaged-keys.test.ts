/**
 * The page's certificate panel and damaged-armour keys (issue 30, CONTRACT §7.6, §8.2), in
 * Debian's Chromium against the real server: every key encoding with every armour damage, pasted
 * and chosen as a file, is set aside in the browser with an intact key's words; not one
 * 16-character window of any key is in any request the page makes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { bodyOf, DAMAGES, sampleKeys, windowsSeen } from "../hardening/damaged-keys.ts";
import { launchChromium } from "./chromium.ts";

const TIME_LIMIT_MS = 120_000;
const KEYS = sampleKeys();
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every request the page made: its URL and body. */
const sent: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  await context.route("**/*", (route) => {
    const request = route.request();
    sent.push(`${request.url()}\n${request.postData() ?? ""}`);
    const { hostname } = new URL(request.url());
    return hostname === "127.0.0.1" ? route.continue() : route.abort();
  });
  await page.goto(`${server.url}/`);
  await page.waitForLoadState("networkidle");
}, TIME_LIMIT_MS);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Keys seen in what the page sent since `from`: name and windows, empty when none. */
function leaks(from: number): { key: string; seen: string[] }[] {
  const text = sent.slice(from).join("\n");
  return KEYS.map((key) => ({ key: key.name, seen: windowsSeen(bodyOf(key.pem), text) })).filter(
    (leak) => leak.seen.length > 0,
  );
}

describe("damaged-armour keys on the page", () => {
  test(
    "pasted: every damage, every encoding, set aside before anything is sent",
    async () => {
      for (const damage of Object.keys(DAMAGES)) {
        const from = sent.length;
        const pasted = `${certPem("chain-leaf")}${KEYS.map((key) => DAMAGES[damage]!(key.pem)).join("")}${certPem("chain-int1")}`;
        await page.getByLabel("PEM certificates").fill(pasted);
        await page.getByRole("button", { name: "Inspect the bundle" }).click();
        await page.locator("#cert-result .notice").first().waitFor();
        await page.waitForLoadState("networkidle");
        const notices = await page.locator("#cert-result .notice").allTextContents();
        expect({ damage, some: notices.length > 0 }).toEqual({ damage, some: true });
        for (const notice of notices)
          expect(notice).toMatch(
            /^A private key \(block \d+, line \d+\) was set aside: it is not sent and not shown\.$/,
          );
        expect({ damage, leaks: leaks(from) }).toEqual({ damage, leaks: [] });
        const shown = (await page.locator("#cert-result").textContent()) ?? "";
        expect({ damage, shown: KEYS.flatMap((key) => windowsSeen(bodyOf(key.pem), shown)) }).toEqual({
          damage,
          shown: [],
        });
      }
    },
    TIME_LIMIT_MS,
  );

  test(
    "chosen as a file: set aside by the file reader, never in the box or a request",
    async () => {
      const from = sent.length;
      const file = `${certPem("chain-leaf")}${KEYS.map((key) => DAMAGES["BEGIN missing"]!(key.pem)).join("")}`;
      await page.getByLabel("Certificate files").setInputFiles({
        name: "site.pem",
        mimeType: "application/x-pem-file",
        buffer: Buffer.from(file),
      });
      await page.locator("#cert-file-notes .notice").first().waitFor();
      const box = await page.getByLabel("PEM certificates").inputValue();
      expect(KEYS.flatMap((key) => windowsSeen(bodyOf(key.pem), box))).toEqual([]);
      await page.getByRole("button", { name: "Inspect the bundle" }).click();
      await page.locator("#chain-verdict").waitFor();
      expect(leaks(from)).toEqual([]);
    },
    TIME_LIMIT_MS,
  );
});
