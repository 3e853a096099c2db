/**
 * The web page at `/` in a real browser (issue 8): Debian's chromium driven by playwright-core,
 * against the real server process, with every request to anything but the loopback server
 * aborted. A user computes a subtraction, inspects a bundle with an expired intermediate and
 * sees the error finding, fixes a PEM typo guided by the highlighted line, and sees their IP;
 * network failures and malformed answers are shown plainly; axe-core finds no serious or
 * critical accessibility violation. Screenshots go to test-output/ for review.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createClient } from "../../src/client/index.ts";
import { MAP_WORDS } from "../../src/web/address-map.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { certPath, certPem, chainPem, filePath, GENERATED_DIR, privateKeyPem } from "../fixtures/fixtures.ts";
import { DBIP_FILES, DBIP_IPV4_CLIENT } from "../fixtures/geoip/expected.ts";
import { makePkcs12Files, P12_PASSWORD } from "../support/pkcs12-files.ts";
import { launchChromium } from "./chromium.ts";
import { expiredIntermediateBundle } from "./expired-intermediate.ts";

const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const AXE_SOURCE = await Bun.file(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname,
).text();
const TIME_LIMIT_MS = 60_000;

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  // The GeoIP test databases: /v1/public-ip/databases answers for real (CONTRACT §8.10).
  server = await startServer({
    GEOIP_ASN_DB: DBIP_FILES.asn,
    GEOIP_COUNTRY_DB: DBIP_FILES.country,
  });
  browser = await launchChromium();
}, TIME_LIMIT_MS);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

/** The CERTIFICATE blocks openssl prints for a file (`x509 -inform DER`, `pkcs7 -print_certs`), joined. */
function opensslPem(args: string[], path: string): string {
  const run = Bun.spawnSync(["openssl", ...args, "-in", path], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${run.stderr.toString()}`);
  return (
    run.stdout.toString().match(/-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n/g) ?? []
  ).join("");
}

interface Visit {
  page: Page;
  context: BrowserContext;
  /** Requests to anything but the loopback server (aborted). */
  blocked: string[];
  /** Page errors and console errors. */
  problems: string[];
  /** Every URL the page requested. */
  requested: string[];
}

/** Clicks "Show my IP" with the page's public-ip call answered by `body` (200, JSON). */
async function showMyIpAnswering(v: Visit, body: string): Promise<void> {
  await v.page.route("**/v1/public-ip", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body }),
  );
  await v.page.getByRole("button", { name: "Show my IP" }).click();
}

/** Opens the page in a fresh context with external requests blocked and problems recorded. */
async function visit(): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const blocked: string[] = [];
  const problems: string[] = [];
  const requested: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    requested.push(url);
    const { hostname } = new URL(url);
    if (hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
    blocked.push(url);
    return route.abort();
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  const response = await page.goto(`${server.url}/`);
  expect(response?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  return { page, context, blocked, problems, requested };
}

/**
 * No request left the loopback server, nothing went wrong, nothing was stored. `expected` lists
 * console messages the browser itself writes for a failure the test provokes.
 */
async function expectClean(visit: Visit, expected: RegExp[] = []): Promise<void> {
  expect(visit.blocked).toEqual([]);
  expect(visit.problems.filter((problem) => !expected.some((pattern) => pattern.test(problem)))).toEqual([]);
  expect(await visit.context.cookies()).toEqual([]);
  expect(await visit.page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** axe-core on the page as it is now; evaluated over the DevTools protocol, which CSP does not restrict. */
async function axe(page: Page, name: string): Promise<AxeResult["violations"]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
  )) as AxeResult;
  writeFileSync(join(OUTPUT, `web-page-axe-${name}.json`), JSON.stringify(result.violations, null, 2));
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

describe("the page and its headers", () => {
  test("/ is HTML with a strict Content-Security-Policy; assets come from the server itself", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${server.url}/assets/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await script.text()).length).toBeLessThan(200_000);
    expect((await fetch(`${server.url}/assets/app.css`)).headers.get("content-type")).toBe(
      "text/css; charset=utf-8",
    );
    const wrongMethod = await fetch(`${server.url}/`, { method: "POST" });
    expect(wrongMethod.status).toBe(405);
  });

  test(
    "loads offline with nothing but its own assets, and passes axe-core",
    async () => {
      const v = await visit();
      const own = v.requested.map((url) => new URL(url).pathname).sort();
      expect(own).toEqual(["/", "/assets/app.css", "/assets/app.js", "/assets/icon.svg"].sort());
      await v.page.screenshot({ path: join(OUTPUT, "web-page.png"), fullPage: true });
      expect(await axe(v.page, "initial")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "keyboard: the controls are reached in reading order and a form submits from the keyboard",
    async () => {
      const v = await visit();
      const order: string[] = [];
      for (let i = 0; i < 12; i++) {
        await v.page.keyboard.press("Tab");
        order.push(
          await v.page.evaluate(() => {
            const active = document.activeElement as HTMLElement | null;
            return active?.id || active?.getAttribute("href") || active?.textContent?.trim() || "";
          }),
        );
      }
      expect(order).toEqual([
        "#main",
        "/docs",
        "#cidr",
        "#certificates",
        "#key-match",
        "#myip",
        "calc-cidr",
        "Calculate",
        "cover-inputs",
        "Compute the cover",
        "subtract-include",
        "subtract-exclude",
      ]);
      await v.page.keyboard.press("Tab");
      await v.page.keyboard.press("Enter");
      await v.page.getByRole("cell", { name: "10.0.1.0/24", exact: true }).waitFor();
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );
});

describe("a user", () => {
  test(
    "merges a mixed list, IPv4 first, and gets it as a plain list; allocates the next free blocks",
    async () => {
      const v = await visit();
      const inputs = ["2001:db8::/33", "10.0.0.128/25", "10.0.0.0/25", "2001:db8:8000::/33"];
      await v.page.getByLabel("Entries to merge").fill(inputs.join("\n"));
      await v.page.getByRole("button", { name: "Merge", exact: true }).click();
      const plain = v.page.getByRole("textbox", { name: "As a plain list" });
      await plain.waitFor();
      const expected = await createClient({ baseUrl: server.url }).cidrMerge({ inputs });
      if (!expected.ok) throw new Error("the API refused the merge");
      expect(await plain.inputValue()).toBe(expected.value.cidrs.join("\n"));
      expect(expected.value.cidrs).toEqual(["10.0.0.0/24", "2001:db8::/32"]);
      expect(await v.page.locator("#merge-result tbody td:nth-child(2)").allTextContents()).toEqual(
        expected.value.cidrs,
      );
      // The result stands beside the form that produced it, not below every form.
      const form = await v.page.locator("#merge-form").boundingBox();
      const result = await v.page.locator("#merge-result").boundingBox();
      expect(result!.x).toBeGreaterThan(form!.x + form!.width - 1);
      expect(result!.y).toBeLessThan(form!.y + form!.height);
      expect(await axe(v.page, "merge")).toEqual([]);

      await v.page.getByLabel("Pool (within)").fill("10.0.0.0/24");
      await v.page.getByLabel("Used", { exact: true }).fill("10.0.0.0/26");
      await v.page.getByLabel("Prefix length", { exact: true }).fill("26");
      await v.page.getByLabel("How many", { exact: true }).fill("2");
      await v.page.getByRole("button", { name: "Allocate", exact: true }).click();
      const allocated = v.page.locator("#allocate-result");
      await allocated.getByRole("cell", { name: "10.0.0.128/26", exact: true }).waitFor();
      expect(await allocated.getByRole("textbox", { name: "As a plain list" }).inputValue()).toBe(
        "10.0.0.64/26\n10.0.0.128/26",
      );
      expect(await allocated.textContent()).toContain("64 addresses");
      // Each block with its first address, last address and size.
      expect(await allocated.locator("thead th").allTextContents()).toEqual([
        "#",
        "CIDR",
        "First address",
        "Last address",
        "Addresses",
      ]);
      const rows = await allocated
        .locator("tbody tr")
        .evaluateAll((all) => all.map((row) => [...row.children].map((cell) => cell.textContent)));
      expect(rows).toEqual([
        ["1", "10.0.0.64/26", "10.0.0.64", "10.0.0.127", "64"],
        ["2", "10.0.0.128/26", "10.0.0.128", "10.0.0.191", "64"],
      ]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "the subnet calculator answers for an IPv4 and an IPv6 block, as Python's ipaddress computes them",
    async () => {
      const v = await visit();
      const calculator = v.page.locator("#calc-result");
      for (const entry of ["192.168.10.77/26", "2001:db8:abcd:12::1/62"]) {
        await v.page.getByLabel("Address or CIDR", { exact: true }).fill(entry);
        await v.page.getByRole("button", { name: "Calculate" }).click();
        await calculator.locator("dl").waitFor();
        await v.page.waitForFunction(
          (given) => document.querySelector("#calc-result dd")?.textContent === given.split("/")[0],
          entry,
        );
        const shown = Object.fromEntries(
          await calculator.locator("dl").evaluate((list) => {
            const terms = [...list.querySelectorAll("dt")].map((dt) => dt.textContent ?? "");
            return terms.map((term, i) => [term, list.querySelectorAll("dd")[i]?.textContent ?? ""]);
          }),
        ) as Record<string, string>;
        const python = Bun.spawnSync([
          "python3",
          "-c",
          `import ipaddress, json, sys
n = ipaddress.ip_network(sys.argv[1], strict=False)
hosts = n.num_addresses - (2 if n.version == 4 and n.prefixlen <= 30 else 1 if n.version == 6 and n.prefixlen <= 126 else 0)
print(json.dumps({"cidr": str(n), "network": str(n.network_address), "last": str(n.broadcast_address),
  "netmask": str(n.netmask), "addresses": str(n.num_addresses), "hosts": str(hosts)}))`,
          entry,
        ]);
        const oracle = JSON.parse(python.stdout.toString()) as Record<string, string>;
        expect(shown.cidr).toBe(oracle.cidr!);
        expect(shown.network).toBe(oracle.network!);
        expect(shown["last address"]).toBe(oracle.last!);
        expect(shown.netmask).toBe(`${oracle.netmask} = /${entry.split("/")[1]}`);
        expect(shown.addresses).toBe(oracle.addresses!);
        expect(shown["usable hosts"]).toBe(oracle.hosts!);
        if (entry.includes(":")) {
          expect(shown["/64 subnets"]).toBe("4");
          expect(shown.type).toContain("Documentation, RFC 3849");
          await v.page
            .locator("#calc-tool")
            .screenshot({ path: join(OUTPUT, "web-page-calculator-ipv6.png") });
        } else {
          expect(shown.broadcast).toBe(oracle.last!);
          expect(shown.wildcard).toBe("0.0.0.63");
          expect(shown.type).toContain("Private-Use, RFC 1918");
        }
      }
      await v.page.getByLabel("Address or CIDR", { exact: true }).fill("10.0.0.0/33");
      await v.page.getByRole("button", { name: "Calculate" }).click();
      await calculator.getByRole("alert").waitFor();
      expect(await calculator.getByRole("alert").textContent()).toContain("10.0.0.0/33");
      expect(await axe(v.page, "calculator")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "splits an IPv6 block: every subnet with its first and last address and exact size",
    async () => {
      const v = await visit();
      await v.page.getByLabel("Block", { exact: true }).fill("2001:db8::/46");
      await v.page.getByLabel("Subnet prefix length").fill("48");
      await v.page.getByRole("button", { name: "Split", exact: true }).click();
      const rows = v.page.locator("#split-result tbody tr");
      await rows.first().waitFor();
      const cells = await rows.evaluateAll((all) =>
        all.map((row) => [...row.children].map((c) => c.textContent)),
      );
      expect(cells.length).toBe(4);
      expect(cells[1]).toEqual([
        "2",
        "2001:db8:1::/48",
        "2001:db8:1::",
        "2001:db8:1:ffff:ffff:ffff:ffff:ffff",
        `${2n ** 80n} (2^80)`,
      ]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "computes a subtraction",
    async () => {
      const v = await visit();
      const include = ["10.0.0.0/8"];
      const exclude = ["10.128.0.0/9", "10.0.0.0/24"];
      await v.page.getByLabel("Include").fill(include.join("\n"));
      await v.page.getByLabel("Exclude").fill(exclude.join("\n"));
      await v.page.getByRole("button", { name: "Subtract" }).click();
      const table = v.page.locator("#subtract-result table");
      await table.waitFor();
      const shown = await table.locator("tbody td:nth-child(2)").allTextContents();
      const expected = await createClient({ baseUrl: server.url }).cidrSubtract({ include, exclude });
      if (!expected.ok) throw new Error("the API refused the subtraction");
      expect(shown).toEqual(expected.value.cidrs);
      expect(await v.page.locator("#subtract-result").textContent()).toContain(
        expected.value.remainingAddressCount,
      );
      await v.page.locator("#cidr").screenshot({ path: join(OUTPUT, "web-page-subtract.png") });
      expect(await axe(v.page, "subtract")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "inspects a bundle with an expired intermediate and sees the error finding",
    async () => {
      const v = await visit();
      await v.page.getByLabel("PEM certificates").fill(expiredIntermediateBundle());
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      const errors = v.page.getByRole("region", { name: "Errors (1)" });
      await errors.waitFor();
      const finding = errors.getByRole("listitem");
      expect(await finding.textContent()).toContain("CERTIFICATE_EXPIRED — certificate #1");
      expect(await finding.textContent()).toContain("expired at 2020-01-01T00:00:00Z");
      // Complete, but the expired intermediate stays in any chain written: --fix would exit 1, so
      // nothing is handed out, and the panel says why (CONTRACT §9.6).
      await v.page.locator("#chain-verdict").waitFor();
      expect(await v.page.locator("#chain-pem").count()).toBe(0);
      expect(await v.page.getByRole("button", { name: /Download/ }).count()).toBe(0);
      expect(await v.page.locator("#chain-not-offered").textContent()).toMatch(
        /errors? stays? in the corrected chain \(.*EXPIRED.*\)/,
      );
      // Errors come first, then the other groups.
      const groups = await v.page.locator(".findings h4").allTextContents();
      expect(groups[0]).toBe("Errors (1)");
      expect(await v.page.locator("#cert-result tbody tr").count()).toBe(3);
      await v.page
        .locator("#certificates")
        .screenshot({ path: join(OUTPUT, "web-page-expired-intermediate.png") });
      expect(await axe(v.page, "certificate-findings")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "inspects a leaf and root without their intermediate and sees a warning in the summary",
    async () => {
      const v = await visit();
      await v.page.getByLabel("PEM certificates").fill(chainPem("missing-intermediate"));
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#cert-result table").waitFor();
      const warning = v.page.locator("#cert-result .warning");
      expect(await warning.count()).toBe(1);
      expect(await warning.textContent()).toBe(
        "Warning: The chain looks incomplete. Certificate 0 (CN=www.example.com) was issued by CN=Fixture Intermediate RSA, no certificate in the bundle carries that name, and it is not a known root: an intermediate CA certificate is most likely missing.",
      );
      expect(await axe(v.page, "missing-intermediate")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "pastes a leaf+key file: the key is set aside on the page with its position, never sent or shown",
    async () => {
      const v = await visit();
      const bodies: string[] = [];
      v.page.on("request", (request) => bodies.push(request.postData() ?? ""));
      const key = privateKeyPem("pkcs8");
      const pem = `${chainPem("rsa-sha256")}\n${key}`;
      const keyLines = key.split("\n").filter((line) => line !== "" && !line.startsWith("-----"));
      const line = pem.slice(0, pem.indexOf("-----BEGIN PRIVATE KEY")).split("\n").length;
      await v.page.getByLabel("PEM certificates").fill(pem);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      const notice = v.page.locator("#cert-result .notice");
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        `A private key (block 4, line ${line}) was set aside: it is not sent and not shown.`,
      );
      await v.page.locator("#chain-verdict").waitFor();
      const shown = (await v.page.locator("#cert-result").textContent()) ?? "";
      for (const text of keyLines) {
        expect(shown).not.toContain(text.slice(0, 16));
        for (const body of bodies) expect(body).not.toContain(text.slice(0, 16));
      }
      expect(bodies.filter((body) => body !== "").length).toBe(2);
      expect(await axe(v.page, "private-key")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "pastes a misordered bundle, downloads fullchain.pem, and openssl verifies it",
    async () => {
      const v = await visit();
      const misordered = chainPem("chain-misordered");
      await v.page.getByLabel("PEM certificates").fill(misordered);
      await v.page.getByLabel("Your own root (optional)").fill(certPem("chain-root"));
      await v.page.getByLabel("Hostname or IP address to check (optional)").fill("192.0.2.10");
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-pem").waitFor();
      expect(await v.page.locator("#chain-verdict").textContent()).toBe(
        "Complete, but 1 problem is an error.",
      );
      expect(await v.page.locator("#chain-problems li > strong").allTextContents()).toEqual([
        "WRONG_ORDER (error)",
      ]);
      // The findings use the same root as the chain panel: no missing intermediate beside "complete".
      const findings = (await v.page.locator("#cert-result .findings").textContent()) ?? "";
      expect(findings).toContain("one of your own roots");
      expect(findings).not.toContain("most likely missing");
      expect(await v.page.locator("#cert-result .warning").count()).toBe(0);
      const [download] = await Promise.all([
        v.page.waitForEvent("download"),
        v.page.getByRole("button", { name: "Download fullchain.pem" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("fullchain.pem");
      const saved = join(OUTPUT, "downloaded-fullchain.pem");
      await download.saveAs(saved);
      const fixed = readFileSync(saved, "utf8");
      expect(fixed).toBe((await v.page.locator("#chain-pem").textContent()) ?? "");
      const blocks = fixed.match(/-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n/g)!;
      expect(blocks.length).toBe(3);
      writeFileSync(join(OUTPUT, "downloaded-leaf.pem"), blocks[0]!);
      writeFileSync(join(OUTPUT, "downloaded-rest.pem"), blocks.slice(1).join(""));
      const verify = Bun.spawnSync([
        "openssl",
        "verify",
        "-CAfile",
        certPath("chain-root"),
        "-untrusted",
        join(OUTPUT, "downloaded-rest.pem"),
        join(OUTPUT, "downloaded-leaf.pem"),
      ]);
      expect(verify.stdout.toString()).toContain("OK");
      expect(verify.exitCode).toBe(0);
      await v.page.screenshot({ path: join(OUTPUT, "web-page-chain.png"), fullPage: true });
      expect(await axe(v.page, "chain-to-deploy")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "pastes a leaf alone: told what is missing and where its CA publishes it, offered no chain to deploy",
    async () => {
      const v = await visit();
      const leafOnly = chainPem("chain-leaf-only");
      await v.page.getByLabel("PEM certificates").fill(leafOnly);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-verdict").waitFor();
      const expected = await createClient({ baseUrl: server.url }).certificateChain({ pem: leafOnly });
      if (!expected.ok) throw new Error("the API refused the chain");
      expect(expected.value.status).toBe("incomplete");
      expect(expected.value.fullchainPem).not.toBe(""); // the API still returns it; the page holds it back
      expect(await v.page.locator("#chain-verdict").textContent()).toBe("Incomplete: an issuer is missing.");
      const missing = v.page.locator("#chain-missing");
      expect(await missing.textContent()).toContain(`Missing issuer ${expected.value.anchor!.subject}.`);
      const links = missing.getByRole("link");
      expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")))).toEqual(
        expected.value.anchor!.caIssuersUrls,
      );
      expect(expected.value.anchor!.caIssuersUrls.length).toBe(2);
      // Nothing hands out the incomplete chain: no PEM box, no Copy, no Download.
      expect(await v.page.locator("#chain-pem").count()).toBe(0);
      expect(await v.page.getByRole("button", { name: "Copy", exact: true }).count()).toBe(0);
      expect(await v.page.getByRole("button", { name: /Download/ }).count()).toBe(0);
      const base64Line = expected.value.fullchainPem.split("\n")[1]!;
      expect((await v.page.locator("#cert-result").textContent()) ?? "").not.toContain(base64Line);
      await v.page
        .locator("#certificates")
        .screenshot({ path: join(OUTPUT, "web-page-incomplete-chain.png") });
      expect(await axe(v.page, "incomplete-chain")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "chooses a DER .cer and a DER .p7b in the file picker: both become PEM on the page, as openssl reads them",
    async () => {
      const v = await visit();
      const picker = v.page.getByLabel("Certificate files");
      const editor = v.page.getByLabel("PEM certificates");
      const notes = v.page.locator("#cert-file-notes");
      const der = readFileSync(filePath("chain-leaf.der"));
      expect(der[0]).toBe(0x30); // really DER, not PEM
      await picker.setInputFiles({ name: "server.cer", mimeType: "application/pkix-cert", buffer: der });
      await notes.getByText("server.cer: a DER file, read as one certificate").waitFor();
      expect(await editor.inputValue()).toBe(
        opensslPem(["x509", "-inform", "DER"], filePath("chain-leaf.der")),
      );

      const p7b = readFileSync(filePath("chain.p7b"));
      await picker.setInputFiles({
        name: "chain.p7b",
        mimeType: "application/x-pkcs7-certificates",
        buffer: p7b,
      });
      await notes
        .getByText("chain.p7b: a DER PKCS#7 bundle; its 3 certificates were read in stored order")
        .waitFor();
      const fromP7b = opensslPem(["pkcs7", "-inform", "DER", "-print_certs"], filePath("chain.p7b"));
      expect(await editor.inputValue()).toBe(fromP7b);
      await v.page.getByLabel("Your own root (optional)").fill(certPem("chain-root"));
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-pem").waitFor();
      expect(await v.page.locator("#cert-result tbody tr").count()).toBe(3);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "chooses a PKCS#12 file with its password: its certificates in the box, in file order; no key byte and no password in any request",
    async () => {
      const p12 = makePkcs12Files();
      const v = await visit();
      const observed: string[] = [];
      v.page.on("request", (request) => observed.push(request.url(), request.postData() ?? ""));
      const picker = v.page.getByLabel("Certificate files");
      const editor = v.page.getByLabel("PEM certificates");
      const notes = v.page.locator("#cert-file-notes");
      const file = { name: "server.p12", mimeType: "application/x-pkcs12", buffer: readFileSync(p12.modern) };
      // Without the password: refused in one line that says where it goes.
      await picker.setInputFiles(file);
      await notes.getByText(/PKCS#12 password field/).waitFor();
      await v.page.getByLabel(/PKCS#12 password/).fill(P12_PASSWORD);
      await picker.setInputFiles([]);
      await picker.setInputFiles(file);
      await notes
        .getByText(/^server\.p12: a PKCS#12 file: 2 certificate\(s\) read in this browser/)
        .waitFor();
      expect(await editor.inputValue()).toBe(p12.certificatesPem);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-verdict").waitFor();
      const keyLines = p12.keyPem.split("\n").filter((line) => line.length > 20 && !line.startsWith("-----"));
      expect(observed.join("\n")).toContain("BEGIN CERTIFICATE");
      for (const text of observed) {
        expect(text).not.toContain(P12_PASSWORD);
        for (const line of keyLines) expect(text).not.toContain(line);
      }
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "chooses PEM PKCS#7 (.p7c), a BOM-prefixed leaf+key file and a binary file: converted, key set aside, binary refused",
    async () => {
      const v = await visit();
      const bodies: string[] = [];
      v.page.on("request", (request) => bodies.push(request.postData() ?? ""));
      const picker = v.page.getByLabel("Certificate files");
      const editor = v.page.getByLabel("PEM certificates");
      const notes = v.page.locator("#cert-file-notes");
      await picker.setInputFiles({
        name: "chain.p7c",
        mimeType: "application/pkcs7-mime",
        buffer: readFileSync(filePath("chain.p7b.pem")),
      });
      await notes
        .getByText(/^chain\.p7c: a PEM PKCS#7 bundle \(block 1, line 1\); its 3 certificates/)
        .waitFor();
      expect(await editor.inputValue()).toBe(
        opensslPem(["pkcs7", "-print_certs"], filePath("chain.p7b.pem")),
      );

      // A HAProxy crt file saved by a Windows editor: BOM, certificate, key, chain.
      const combined = readFileSync(filePath("leaf-and-key.pem"), "utf8");
      const keyBlock = /-----BEGIN ([A-Z ]*PRIVATE KEY)-----\n([\s\S]*?)-----END \1-----/.exec(combined);
      const keyLines = (keyBlock?.[2] ?? "").split("\n").filter((line) => line !== "");
      expect(keyLines.length).toBeGreaterThan(1);
      await picker.setInputFiles({
        name: "site.pem",
        mimeType: "application/x-pem-file",
        buffer: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(combined)]),
      });
      await notes.getByText(/^site\.pem: a private key \(block 2, line \d+\) was set aside/).waitFor();
      const loaded = await editor.inputValue();
      expect(loaded.charCodeAt(0)).not.toBe(0xfeff);
      expect(loaded.match(/-----BEGIN CERTIFICATE-----/g)?.length).toBe(3);
      for (const line of keyLines) expect(loaded).not.toContain(line);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-verdict").waitFor();
      expect(bodies.filter((body) => body !== "").length).toBe(2);
      for (const body of bodies) for (const line of keyLines) expect(body).not.toContain(line);

      await picker.setInputFiles({
        name: "photo.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]),
      });
      const refused = notes.getByRole("alert");
      await refused.waitFor();
      expect(await refused.textContent()).toBe(
        "photo.jpg: binary data, not a certificate (PEM, DER or PKCS#7): byte 0 onwards reads ff d8 ff e0 00 10 4a 46",
      );
      expect(await editor.inputValue()).toBe(loaded);
      expect(await axe(v.page, "file-picker")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "writes list fields as list files are written: BOM, CRLF, blank lines and # comments; a bad entry is named by its line",
    async () => {
      const v = await visit();
      const field = v.page.getByLabel("Entries to merge");
      await field.fill(
        "\uFEFF# office ranges\r\n10.0.0.0/25   # first half\r\n\r\n  # moved\r\n10.0.0.128/25\r\n",
      );
      await v.page.getByRole("button", { name: "Merge", exact: true }).click();
      const plain = v.page.getByRole("textbox", { name: "As a plain list" });
      await plain.waitFor();
      expect(await plain.inputValue()).toBe("10.0.0.0/24");

      await field.fill("# list\n10.0.0.0/25\n\n10.0.0.300/25 # typo\n");
      await v.page.getByRole("button", { name: "Merge", exact: true }).click();
      const alert = v.page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.locator("li").first().textContent()).toMatch(/^Entries to merge, line 4: /);
      await expectClean(v, [/status of 400 \(Bad Request\)/]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "sees which clients refuse each problem, named as the CLI names them (CONTRACT §8.1)",
    async () => {
      const v = await visit();
      const fixtures = join(import.meta.dir, "..", "fixtures", "client-rules");
      const pem = readFileSync(join(fixtures, "chains", "no-san.pem"), "utf8");
      const roots = readFileSync(join(fixtures, "certs", "root.pem"), "utf8");
      await v.page.getByLabel("PEM certificates").fill(pem);
      await v.page.getByLabel("Your own root (optional)").fill(roots);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-verdict").waitFor();
      const expected = await createClient({ baseUrl: server.url }).certificateChain({ pem, roots });
      if (!expected.ok) throw new Error("the API refused the chain");
      expect(expected.value.profile).toBe("private");
      const noSan = expected.value.problems.find((problem) => problem.code === "NO_SUBJECT_ALT_NAME")!;
      expect(noSan.clients).toEqual(["chrome", "apple", "go"]);
      const items = v.page.locator("#chain-problems li");
      expect(await items.count()).toBe(expected.value.problems.length);
      const shown = await items.filter({ hasText: "NO_SUBJECT_ALT_NAME" }).locator("p").first().textContent();
      expect(shown).toBe(`Chrome, Safari, macOS and Go programs refuse this: ${noSan.observed}`);
      expect(
        await items.filter({ hasText: "NO_SUBJECT_ALT_NAME" }).locator("strong.clients").textContent(),
      ).toBe("Chrome, Safari, macOS and Go programs refuse this: ");
      // A problem no client is named for shows its observation alone.
      for (const problem of expected.value.problems.filter((p) => p.clients.length === 0)) {
        const text = await items.filter({ hasText: problem.code }).locator("p").first().textContent();
        expect(text).toBe(problem.observed);
      }
      expect(await v.page.locator("#chain-profile").textContent()).toContain("private PKI");
      // The chain reached the user's own root: no "looks incomplete" guess from the bundle check.
      expect(await v.page.locator("#cert-result .warning").count()).toBe(0);
      await v.page.locator("#certificates").screenshot({ path: join(OUTPUT, "web-page-chain-clients.png") });
      expect(await axe(v.page, "chain-clients")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "fixes a PEM typo guided by the highlighted line",
    async () => {
      const v = await visit();
      const good = chainPem("rsa-sha256");
      const second = good.indexOf("-----BEGIN CERTIFICATE-----", 10);
      const typo = `${good.slice(0, second)}-----BEGIN CERTIFICAT-----${good.slice(second + 27)}`;
      const line = good.slice(0, second).split("\n").length;
      const editor = v.page.getByLabel("PEM certificates");
      await editor.fill(typo);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      const alert = v.page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        `Line ${line}: PEM blocks labelled "CERTIFICAT" are not accepted`,
      );
      const located = alert.locator(".located");
      expect(await located.getAttribute("data-line")).toBe(String(line));
      expect(await located.locator("mark").textContent()).toBe("-----BEGIN CERTIFICAT-----");
      await v.page.locator("#certificates").screenshot({ path: join(OUTPUT, "web-page-pem-typo.png") });
      expect(await axe(v.page, "pem-typo")).toEqual([]);

      // The button selects the highlighted line in the editor; typing replaces it.
      await alert.getByRole("button", { name: `Select line ${line} in the editor` }).click();
      const selected = await editor.evaluate((box: HTMLTextAreaElement) =>
        box.value.slice(box.selectionStart, box.selectionEnd),
      );
      expect(selected).toBe("-----BEGIN CERTIFICAT-----");
      await v.page.keyboard.type("-----BEGIN CERTIFICATE-----");
      expect(await editor.inputValue()).toBe(good);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#cert-result table").waitFor();
      expect(await v.page.getByRole("alert").count()).toBe(0);
      expect(await v.page.locator("#cert-result tbody tr").count()).toBe(3);
      // Chromium logs the 400 answer to the first attempt.
      await expectClean(v, [/status of 400 \(Bad Request\)/]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "sees their IP",
    async () => {
      const v = await visit();
      await v.page.getByRole("button", { name: "Show my IP" }).click();
      await v.page.locator("#myip-result .ip").waitFor();
      expect(await v.page.locator("#myip-result .ip").textContent()).toBe("127.0.0.1");
      await v.page.locator("#myip").screenshot({ path: join(OUTPUT, "web-page-myip.png") });
      // 127.0.0.1 is in no database: no network line.
      expect(await v.page.locator("#myip-network").count()).toBe(0);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "sees the network facts of their IP, with DB-IP's credit linked",
    async () => {
      const v = await visit();
      // The client the databases know, as a server behind a proxy would answer for it.
      await showMyIpAnswering(v, JSON.stringify(DBIP_IPV4_CLIENT));
      const line = v.page.locator("#myip-network");
      await line.waitFor();
      expect(await line.textContent()).toBe(
        "Network: AS64500 · Example Transit B.V. · country NL (from DBIP-ASN-Lite (compat=GeoLite2-ASN), built 2026-08-01; DBIP-Country-Lite, built 2026-08-01). IP Geolocation by DB-IP",
      );
      const link = v.page.getByRole("link", { name: "IP Geolocation by DB-IP" });
      expect(await link.getAttribute("href")).toBe("https://db-ip.com");
      await v.page.locator("#myip").screenshot({ path: join(OUTPUT, "web-page-myip-network.png") });
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );
});

/** Each part of the map in `region`: kind, label and drawn width in pixels. */
async function mapParts(page: Page, region: string) {
  return page.locator(`${region} .map-bar .map-part`).evaluateAll((all) =>
    all.map((part) => ({
      kind: part.getAttribute("data-kind"),
      range: part.getAttribute("data-range"),
      width: part.getBoundingClientRect().width,
      text: part.textContent,
    })),
  );
}

/** WCAG 2.1 relative luminance contrast of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

describe("lists as operators run them (CONTRACT §12)", () => {
  test("pool usage with a bar, merge's special-range filter with its reasons, reverse zones for BIND, at 390 px without sideways scrolling", async () => {
    const v = await visit();
    await v.page.setViewportSize({ width: 390, height: 844 });
    await v.page.getByLabel("Pool", { exact: true }).fill("10.0.0.0/22");
    await v.page.getByLabel("Used blocks").fill("10.0.0.0/24\n10.0.1.64/26");
    await v.page.getByRole("button", { name: "Show usage" }).click();
    const meter = v.page.locator("#usage-meter");
    await meter.waitFor();
    const expected = await createClient({ baseUrl: server.url }).cidrUsage({
      pool: ["10.0.0.0/22"],
      used: ["10.0.0.0/24", "10.0.1.64/26"],
    });
    if (!expected.ok) throw new Error("the API refused the usage request");
    expect(Number(await meter.getAttribute("value"))).toBe(expected.value.percentUsed);
    expect(await v.page.locator("#usage-result tbody td:nth-child(2)").allTextContents()).toEqual(
      expected.value.freeBySize.map(({ blocks }) => blocks),
    );
    await v.page.getByLabel("Entries to merge").fill("0.0.0.0/8\n10.0.0.0/7\n8.8.8.0/24");
    await v.page.getByLabel(/Remove special-purpose space/).check();
    await v.page.getByRole("button", { name: "Merge", exact: true }).click();
    const reasons = v.page.locator("#merge-result pre.reasons");
    await reasons.waitFor();
    expect((await reasons.textContent())?.split("\n")).toEqual([
      'excluded 0.0.0.0/8: 0.0.0.0/8 "This network" (RFC 791)',
      "cut 10.0.0.0/7: 10.0.0.0/8 Private-Use (RFC 1918) removed",
    ]);
    await v.page.getByLabel("Block or address").fill("192.0.2.64/26");
    await v.page.getByRole("button", { name: "Show zones" }).click();
    const bind = v.page.getByRole("textbox", { name: "For BIND (as nettools rdns --bind)" });
    await bind.waitFor();
    expect(await bind.inputValue()).toContain("$GENERATE 64-127 $ CNAME $.64/26.2.0.192.in-addr.arpa.");
    const widths = await v.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    await v.page.screenshot({ path: join(OUTPUT, "web-page-390-usage-merge.png"), fullPage: true });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const serious = (await axe(v.page, "usage-390")).filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious).toEqual([]);
    await expectClean(v);
  }, 120_000);
});

describe("the address-space map", () => {
  test(
    "allocate: used, new and free blocks of the pool, each labelled and as wide as its share",
    async () => {
      const v = await visit();
      await v.page.getByLabel("Pool (within)").fill("10.0.0.0/24");
      await v.page.getByLabel("Used", { exact: true }).fill("10.0.0.0/26");
      await v.page.getByLabel("Prefix length", { exact: true }).fill("26");
      await v.page.getByLabel("How many", { exact: true }).fill("2");
      await v.page.getByRole("button", { name: "Allocate", exact: true }).click();
      await v.page.locator("#allocate-result .map").waitFor();
      const parts = await mapParts(v.page, "#allocate-result");
      expect(parts.map((p) => [p.kind, p.range, p.text])).toEqual([
        ["used", "10.0.0.0/26", "used10.0.0.0/26"],
        ["new", "10.0.0.64/26", "new10.0.0.64/26"],
        ["new", "10.0.0.128/26", "new10.0.0.128/26"],
        ["free", "10.0.0.192/26", "free10.0.0.192/26"],
      ]);
      const total = parts.reduce((sum, p) => sum + p.width, 0);
      for (const part of parts) expect(Math.abs(part.width - total / 4)).toBeLessThan(3);
      const legend = await v.page.locator("#allocate-result .map-legend li").allTextContents();
      expect(legend).toEqual(["used: 64 addresses", "new: 128 addresses", "free: 64 addresses"]);
      expect(await v.page.locator("#allocate-result figcaption").textContent()).toBe(
        "The pool in 10.0.0.0/24 (256 addresses)",
      );
      await v.page.locator("#allocate-tool").screenshot({ path: join(OUTPUT, "web-page-map-allocate.png") });
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "scales from /0 to /128: a /128 used in ::/0 keeps a visible sliver, 8000::/1 takes half",
    async () => {
      const v = await visit();
      await v.page.getByLabel("Pool (within)").fill("::/0");
      await v.page.getByLabel("Used", { exact: true }).fill("::");
      await v.page.getByLabel("Prefix length", { exact: true }).fill("1");
      await v.page.getByLabel("How many", { exact: true }).fill("1");
      await v.page.getByRole("button", { name: "Allocate", exact: true }).click();
      await v.page.locator("#allocate-result .map").waitFor();
      const parts = await mapParts(v.page, "#allocate-result");
      expect(parts.map((p) => [p.kind, p.range])).toEqual([
        ["used", "::/128"],
        ["free", "::1 – 7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
        ["new", "8000::/1"],
      ]);
      const total = parts.reduce((sum, p) => sum + p.width, 0);
      // The sliver's minimum width (5 px) is taken from its neighbours: a few pixels, never the scale.
      expect(parts[0]!.width).toBeGreaterThanOrEqual(5);
      expect(Math.abs(parts[2]!.width - total / 2)).toBeLessThan(6);
      // Too narrow to be labelled in the bar, so every part is labelled in the grid below it.
      expect(await v.page.locator("#allocate-result .map-grid li").allTextContents()).toEqual([
        "used::/128",
        "free::1 – 7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "new8000::/1",
      ]);
      expect(await v.page.locator("#allocate-result .map-legend").textContent()).toContain(
        `new: ${2n ** 127n} addresses`,
      );
      await v.page
        .locator("#allocate-tool")
        .screenshot({ path: join(OUTPUT, "web-page-map-ipv6-scale.png") });
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "split and subtract: few parts labelled in the bar, many in a grid; counts equal the API's",
    async () => {
      const v = await visit();
      await v.page.getByLabel("Block", { exact: true }).fill("10.0.0.0/22");
      await v.page.getByLabel("Subnet prefix length").fill("24");
      await v.page.getByRole("button", { name: "Split", exact: true }).click();
      await v.page.locator("#split-result .map").waitFor();
      expect((await mapParts(v.page, "#split-result")).map((p) => p.text)).toEqual([
        "new10.0.0.0/24",
        "new10.0.1.0/24",
        "new10.0.2.0/24",
        "new10.0.3.0/24",
      ]);
      await v.page.getByLabel("Block", { exact: true }).fill("2001:db8::/56");
      await v.page.getByLabel("Subnet prefix length").fill("64");
      await v.page.getByRole("button", { name: "Split", exact: true }).click();
      const grid = v.page.locator("#split-result .map-grid li");
      await v.page.waitForFunction(
        () => document.querySelectorAll("#split-result .map-grid li").length === 256,
      );
      expect(await grid.nth(255).textContent()).toBe("new2001:db8:0:ff::/64");
      expect(await v.page.locator("#split-result .map-bar .map-part span").count()).toBe(0);
      await v.page.locator("#split-tool").screenshot({ path: join(OUTPUT, "web-page-map-split-grid.png") });

      const include = ["10.0.0.0/8"];
      const exclude = ["10.128.0.0/9", "10.0.0.0/24"];
      await v.page.getByLabel("Include").fill(include.join("\n"));
      await v.page.getByLabel("Exclude").fill(exclude.join("\n"));
      await v.page.getByRole("button", { name: "Subtract" }).click();
      await v.page.locator("#subtract-result .map").waitFor();
      const expected = await createClient({ baseUrl: server.url }).cidrSubtract({ include, exclude });
      if (!expected.ok) throw new Error("the API refused the subtraction");
      const parts = await mapParts(v.page, "#subtract-result");
      expect(parts.filter((p) => p.kind === "kept").map((p) => p.range)).toEqual(expected.value.cidrs);
      expect(parts.filter((p) => p.kind === "removed").map((p) => p.range)).toEqual([
        "10.0.0.0/24",
        "10.128.0.0/9",
      ]);
      expect(await v.page.locator("#subtract-result .map-legend li").allTextContents()).toEqual([
        `removed: ${expected.value.removedAddressCount} addresses`,
        `remaining: ${expected.value.remainingAddressCount} addresses`,
      ]);
      await v.page.locator("#subtract-tool").screenshot({ path: join(OUTPUT, "web-page-map-subtract.png") });
      expect(await axe(v.page, "maps")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "compare: only in A, only in B and in both, one map per family; the diff lines equal nettools diff's",
    async () => {
      const v = await visit();
      const a = ["10.0.0.0/24", "2001:db8::/47"];
      const b = ["10.0.0.128/25", "192.0.2.1", "2001:db8::/48"];
      await v.page.getByLabel("List A").fill(`# yesterday\n${a.join("\n")}`);
      await v.page.getByLabel("List B").fill(b.join("\n"));
      await v.page.getByRole("button", { name: "Compare", exact: true }).click();
      const result = v.page.locator("#compare-result");
      await result.locator(".map").first().waitFor();
      expect(await result.locator("#compare-verdict").textContent()).toStartWith("Different:");
      // The CLI's diff, run in its own process on the same lists, is the oracle for the lines.
      const fileA = join(OUTPUT, "compare-a.txt");
      const fileB = join(OUTPUT, "compare-b.txt");
      writeFileSync(fileA, `${a.join("\n")}\n`);
      writeFileSync(fileB, `${b.join("\n")}\n`);
      const diff = Bun.spawnSync([process.execPath, "src/cli/main.ts", "diff", fileA, fileB], {
        cwd: join(import.meta.dir, "..", ".."),
        stdout: "pipe",
      });
      expect(diff.exitCode).toBe(1);
      expect(await result.getByRole("textbox").inputValue()).toBe(diff.stdout.toString().trimEnd());
      // Sparse IPv4 lists are not drawn in 0.0.0.0/0: the map zooms to each group's block.
      expect(await result.locator("figcaption").allTextContents()).toEqual([
        "IPv4: both lists in 10.0.0.0/24 (256 addresses), part 1 of 2",
        "IPv4: both lists in 192.0.2.1/32 (1 address), part 2 of 2",
        `IPv6: both lists in 2001:db8::/47 (${2n ** 81n} addresses)`,
      ]);
      const maps = result.locator(".map");
      const barTexts = (n: number) =>
        maps
          .nth(n)
          .locator(".map-bar .map-part")
          .evaluateAll((all) => all.map((part) => part.textContent));
      expect(await barTexts(0)).toEqual(["only in A10.0.0.0/25", "in both10.0.0.128/25"]);
      expect(await barTexts(1)).toEqual(["only in B192.0.2.1/32"]);
      expect(await barTexts(2)).toEqual(["in both2001:db8::/48", "only in A2001:db8:1::/48"]);
      const expected = await createClient({ baseUrl: server.url }).cidrCompare({ a, b });
      if (!expected.ok) throw new Error("the API refused the comparison");
      expect(await maps.nth(2).locator(".map-legend").textContent()).toContain(
        `in both: ${expected.value.both.ipv6AddressCount} addresses`,
      );
      await v.page.locator("#compare-tool").screenshot({ path: join(OUTPUT, "web-page-map-compare.png") });
      expect(await axe(v.page, "compare")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "the calculator's map: reserved and usable addresses, special-purpose blocks inside",
    async () => {
      const v = await visit();
      const field = v.page.getByLabel("Address or CIDR", { exact: true });
      await field.fill("192.168.10.77/26");
      await v.page.getByRole("button", { name: "Calculate" }).click();
      await v.page.locator("#calc-result .map").waitFor();
      expect((await mapParts(v.page, "#calc-result")).map((p) => [p.kind, p.range])).toEqual([
        ["reserved", "192.168.10.64/32"],
        ["usable", "192.168.10.65 – 192.168.10.126"],
        ["reserved", "192.168.10.127/32"],
      ]);
      await field.fill("192.0.0.0/16");
      await v.page.getByRole("button", { name: "Calculate" }).click();
      await v.page.waitForFunction(() =>
        document.querySelector("#calc-result figcaption")?.textContent?.startsWith("192.0.0.0/16"),
      );
      // The reserved network and broadcast addresses stay visible over the special-purpose blocks.
      expect((await mapParts(v.page, "#calc-result")).map((p) => [p.kind, p.range])).toEqual([
        ["reserved", "192.0.0.0/32"],
        ["special", "192.0.0.1 – 192.0.0.255"],
        ["usable", "192.0.1.0/24"],
        ["special", "192.0.2.0/24"],
        ["usable", "192.0.3.0 – 192.0.255.254"],
        ["reserved", "192.0.255.255/32"],
      ]);
      await v.page.locator("#calc-tool").screenshot({ path: join(OUTPUT, "web-page-map-calculator.png") });

      // Colours: text on every colour of a part's fill at 4.5:1 or more; each kind's fill or outline
      // at 3:1 or more against the white around it (WCAG 2.1 SC 1.4.3, 1.4.11).
      // Every kind, drawn as a part of a bar and as a swatch, read back from the page's own CSS.
      const styles = await v.page.evaluate((kinds) => {
        const bar = document.createElement("div");
        bar.className = "map-bar";
        document.body.append(bar);
        const out = kinds.flatMap((kind) =>
          ["map-part", "map-swatch"].map((role) => {
            const element = document.createElement("div");
            element.className = `${role} k-${kind}`;
            bar.append(element);
            const style = getComputedStyle(element);
            return {
              kind,
              color: style.color,
              fills: [
                style.backgroundColor,
                ...(style.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []),
              ].filter((colour) => !/rgba\([^)]*, 0\)/.test(colour)),
              outline: style.outlineStyle === "none" ? null : style.outlineColor,
            };
          }),
        );
        bar.remove();
        return out;
      }, Object.keys(MAP_WORDS));
      expect(styles.length).toBe(24);
      for (const style of styles) {
        for (const fill of style.fills) expect(contrast(style.color, fill)).toBeGreaterThanOrEqual(4.5);
        const edges = [...style.fills, ...(style.outline ? [style.outline] : [])];
        expect(Math.max(...edges.map((edge) => contrast(edge, "rgb(255, 255, 255)")))).toBeGreaterThanOrEqual(
          3,
        );
      }
      expect(await axe(v.page, "calculator-map")).toEqual([]);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );
});

/** Runs openssl with `input` on stdin; its stdout. */
function openssl(args: string[], input?: string): Buffer {
  const run = Bun.spawnSync(["openssl", ...args], {
    stdin: input === undefined ? undefined : Buffer.from(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${run.stderr.toString()}`);
  return run.stdout;
}

/** What `openssl pkey -pubout -outform DER | sha256sum` says of a key: the oracle for the page's hash. */
function opensslPublicKeySha256(keyPem: string): string {
  const spki = openssl(["pkey", "-pubout", "-outform", "DER"], keyPem);
  return new Bun.CryptoHasher("sha256").update(spki).digest("hex");
}

/**
 * Every 16-character run of the base64 of the private-key blocks in `text`, less the runs that
 * also stand in `publicTexts` (a key's algorithm identifier is also in its certificate): none may
 * appear anywhere observed.
 */
function keyFragments(text: string, publicTexts: string[]): string[] {
  const blocks =
    text.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g) ?? [];
  const published = publicTexts.map((pub) => pub.replace(/\s/g, ""));
  return blocks
    .flatMap((block) => block.split("\n"))
    .filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line))
    .flatMap((line) =>
      Array.from({ length: Math.floor(line.length / 16) }, (_, i) => line.slice(i * 16, i * 16 + 16)),
    )
    .filter((fragment) => !published.some((pub) => pub.includes(fragment)));
}

describe("does this key match? (CONTRACT §8.2)", () => {
  const keyPath = (name: string) => {
    filePath("chain-leaf.der"); // makes sure the fixtures exist
    return join(GENERATED_DIR, "keys", `${name}.key`);
  };

  test(
    "PKCS#8, PKCS#1, SEC1 and Ed25519 keys: the browser's hash equals openssl's, the match is found; no key byte in any request, URL, storage or console line",
    async () => {
      const v = await visit();
      const observed: string[] = [];
      v.page.on("request", (request) => {
        observed.push(request.url(), request.postData() ?? "", JSON.stringify(request.headers()));
      });
      v.page.on("console", (message) => observed.push(message.text()));
      const ecKey = readFileSync(keyPath("leaf-ec"), "utf8");
      const rsaKey = readFileSync(keyPath("leaf-rsa"), "utf8");
      const cases = [
        {
          name: "EC P-256, PKCS#8",
          key: ecKey,
          certificates: chainPem("chain-ordered"),
          match: "#0",
          type: "EC P-256",
        },
        {
          name: "EC P-256, SEC1",
          key: openssl(["ec"], ecKey).toString(),
          certificates: chainPem("chain-ordered"),
          match: "#0",
          type: "EC P-256",
        },
        {
          name: "RSA, PKCS#1",
          key: openssl(["pkey", "-traditional"], rsaKey).toString(),
          certificates: chainPem("rsa-sha256"),
          match: "#0",
          type: "RSA",
        },
        {
          name: "Ed25519",
          key: readFileSync(keyPath("leaf-ed25519"), "utf8"),
          certificates: chainPem("ed25519"),
          match: "#0",
          type: "Ed25519",
        },
        {
          name: "RSA against the EC chain",
          key: rsaKey,
          certificates: chainPem("chain-ordered"),
          match: null,
          type: "RSA",
        },
      ];
      expect(cases[1]!.key).toContain("-----BEGIN EC PRIVATE KEY-----");
      expect(cases[2]!.key).toContain("-----BEGIN RSA PRIVATE KEY-----");
      const fragments = cases.flatMap((c) =>
        keyFragments(
          c.key,
          cases.map((other) => other.certificates),
        ),
      );
      expect(fragments.length).toBeGreaterThan(20);
      for (const c of cases) {
        await v.page.getByLabel("Private key (PEM)").fill(c.key);
        await v.page.getByLabel("Certificates (PEM)").fill(c.certificates);
        await v.page.evaluate(() => document.querySelector("#key-result")?.replaceChildren());
        await v.page.getByRole("button", { name: "Check the match" }).click();
        const verdict = v.page.locator("#key-verdict");
        await verdict.waitFor();
        const text = (await v.page.locator("#key-result").textContent()) ?? "";
        expect(text).toContain(`${c.type}, public key SHA-256 ${opensslPublicKeySha256(c.key)}`);
        if (c.match === null) expect(await verdict.textContent()).toStartWith("No match:");
        else
          expect(await verdict.textContent()).toStartWith(
            `Match: the key belongs to certificate ${c.match} (`,
          );
      }
      await v.page.locator("#key-match").screenshot({ path: join(OUTPUT, "web-page-key-match.png") });
      expect(await axe(v.page, "key-match")).toEqual([]);
      // Nothing of any key left the page or was kept.
      const stored = await v.page.evaluate(async () => ({
        local: JSON.stringify({ ...localStorage }),
        session: JSON.stringify({ ...sessionStorage }),
        databases: (await indexedDB.databases()).length,
        caches: (await caches.keys()).length,
        cookie: document.cookie,
      }));
      expect(stored).toEqual({ local: "{}", session: "{}", databases: 0, caches: 0, cookie: "" });
      expect(observed.filter((line) => line.includes("/v1/certificate-chain")).length).toBeGreaterThanOrEqual(
        5,
      );
      for (const line of observed) for (const fragment of fragments) expect(line).not.toContain(fragment);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );

  test(
    "a HAProxy crt file alone (key inside) matches; an encrypted key is refused with the command that reads it",
    async () => {
      const v = await visit();
      const bodies: string[] = [];
      v.page.on("request", (request) => bodies.push(`${request.url()} ${request.postData() ?? ""}`));
      const combined = readFileSync(filePath("leaf-and-key.pem"));
      await v.page
        .getByLabel("Certificate or bundle files")
        .setInputFiles({ name: "site.pem", mimeType: "application/x-pem-file", buffer: combined });
      await v.page.locator("#key-file-notes .notice").first().waitFor();
      expect(await v.page.getByLabel("Certificates (PEM)").inputValue()).not.toContain("PRIVATE KEY");
      await v.page.getByRole("button", { name: "Check the match" }).click();
      await v.page.locator("#key-verdict").waitFor();
      expect(await v.page.locator("#key-verdict").textContent()).toStartWith(
        "Match: the key belongs to certificate #0 (",
      );

      const encrypted = openssl(
        ["pkey", "-aes256", "-passout", "pass:secret"],
        readFileSync(keyPath("leaf-ec"), "utf8"),
      ).toString();
      await v.page.getByLabel("Private key (PEM)").fill(encrypted);
      await v.page.getByRole("button", { name: "Check the match" }).click();
      const alert = v.page.locator("#key-result").getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("nettools key-match -k KEY --passin env:VAR -c CERT");
      const certificates = combined
        .toString()
        .match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)!;
      const fragments = [
        ...keyFragments(combined.toString(), certificates),
        ...keyFragments(encrypted, certificates),
      ];
      expect(fragments.length).toBeGreaterThan(10);
      for (const body of bodies) for (const fragment of fragments) expect(body).not.toContain(fragment);
      expect(bodies.filter((body) => body.includes("/v1/certificate-chain")).length).toBe(1);
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );
});

describe("client-side failures are shown plainly", () => {
  test(
    "a network failure is NETWORK_ERROR",
    async () => {
      const v = await visit();
      await v.page.route("**/v1/range-to-cidrs", (route) => route.abort("connectionrefused"));
      await v.page.getByRole("button", { name: "Convert the range" }).click();
      const alert = v.page.getByRole("alert");
      await alert.waitFor();
      const text = await alert.textContent();
      expect(text).toContain("Network error");
      expect(text).toContain("NETWORK_ERROR");
      // Chromium logs the refused request itself; nothing else may go wrong.
      await expectClean(v, [/ERR_CONNECTION_REFUSED|Failed to load resource/]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "an answer that breaks the schema is INVALID_RESPONSE, saying what did not match",
    async () => {
      const v = await visit();
      await showMyIpAnswering(v, '{"family":"ipv4","ip":"not-an-ip"}');
      const alert = v.page.getByRole("alert");
      await alert.waitFor();
      const text = await alert.textContent();
      expect(text).toContain("Invalid response");
      expect(text).toContain("INVALID_RESPONSE");
      expect(await v.page.locator("#myip-result .ip").count()).toBe(0);
      await v.page.locator("#myip").screenshot({ path: join(OUTPUT, "web-page-invalid-response.png") });
      await expectClean(v);
    },
    TIME_LIMIT_MS,
  );
});

describe("the instant under the certificate options (CONTRACT §9.1)", () => {
  test(
    "judges a bundle at the instant given, and shows the service's refusal of one it cannot read",
    async () => {
      const v = await visit();
      const bodies: string[] = [];
      v.page.on("request", (request) => bodies.push(request.postData() ?? ""));
      // A second after the leaf's notAfter, as openssl reads it: the page must say EXPIRED.
      const end = Bun.spawnSync(["openssl", "x509", "-noout", "-enddate", "-in", certPath("chain-leaf")]);
      const notAfter =
        Date.parse(
          end.stdout
            .toString()
            .trim()
            .replace(/^notAfter=/, ""),
        ) / 1000;
      const after = `${new Date((notAfter + 1) * 1000).toISOString().slice(0, 19)}Z`;
      await v.page.getByLabel("PEM certificates").fill(chainPem("chain-ordered"));
      await v.page.getByLabel("Your own root (optional)").fill(certPem("chain-root"));
      await v.page.getByLabel("Judge at this instant (optional)").fill(after);
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.locator("#chain-verdict").waitFor();
      expect(await v.page.locator("#cert-result caption").first().textContent()).toContain(
        `(evaluated at ${after})`,
      );
      expect(await v.page.locator("#chain-problems li > strong").allTextContents()).toContain(
        "EXPIRED (error)",
      );
      const posted = bodies
        .filter((body) => body !== "")
        .map((body) => (JSON.parse(body) as { at?: string }).at);
      expect(posted).toEqual([after, after]);

      await v.page.getByLabel("Judge at this instant (optional)").fill("2030-02-30T00:00:00Z");
      await v.page.getByRole("button", { name: "Inspect the bundle" }).click();
      await v.page.getByText("at must be an RFC 3339 date-time").first().waitFor();
      expect(await axe(v.page, "instant")).toEqual([]);
      await expectClean(v, [/status of 400/]);
    },
    TIME_LIMIT_MS,
  );
});
