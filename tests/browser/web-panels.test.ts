/**
 * Every panel of the page in Chromium at 390 px and 1280 px (issue 34.7), and the page's texts
 * against the CLI's. Each panel is used with an answer on screen: the document never scrolls
 * sideways (`document.scrollingElement.scrollWidth <= clientWidth`), axe-core finds no serious or
 * critical violation, and a screenshot of each panel is written to the output directory printed
 * at the start (under the OS temporary directory; NETTOOLS_WEB_PANELS_OUTPUT moves it). Then the
 * same inputs go through the page and through `nettools` in its own process: the set formats
 * (nft, ipset, Cisco), the BIND text, the Terraform plan with cloud counts, log matching under
 * every option, merge -x's reasons and the pool usage are equal, byte for byte, on screen and in
 * the downloaded file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { chainPem, filePath, GENERATED_DIR } from "../fixtures/fixtures.ts";
import { launchChromium } from "./chromium.ts";

const ROOT = join(import.meta.dir, "..", "..");
const OUTPUT = process.env.NETTOOLS_WEB_PANELS_OUTPUT ?? join(tmpdir(), "nettools-web-panels");
const AXE_SOURCE = await Bun.file(join(ROOT, "node_modules/axe-core/axe.min.js")).text();
const TIME_LIMIT_MS = 180_000;

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  console.log(`web panels: screenshots and axe reports in ${OUTPUT}`);
  server = await startServer({});
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

interface Visit {
  page: Page;
  problems: string[];
  blocked: string[];
}

async function visit(width: number): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  expect((await page.goto(`${server.url}/`))?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  return { page, problems, blocked };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is (its source injected). */
async function axe(page: Page, name: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    async () =>
      (
        (await (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run()) as {
          violations: unknown[];
        }
      ).violations,
  )) as AxeViolation[];
  writeFileSync(join(OUTPUT, `axe-${name}.json`), JSON.stringify(violations, null, 2));
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * The document's widths (it scrolls sideways when `scroll` is over `client`) and, to say why, the
 * innermost elements reaching past its right edge.
 */
async function widths(page: Page): Promise<{ scroll: number; client: number; past: string[] }> {
  return page.evaluate(() => {
    const element = document.scrollingElement ?? document.documentElement;
    const client = element.clientWidth;
    const past = [...document.querySelectorAll("body *")]
      .filter((node) => node.getBoundingClientRect().right > client + 0.5)
      .filter(
        (node) => ![...node.children].some((child) => child.getBoundingClientRect().right > client + 0.5),
      )
      .filter((node) => !node.closest(".table-scroll, textarea, .map-bar"))
      .slice(0, 6)
      .map(
        (node) =>
          `${node.tagName.toLowerCase()}#${node.id}.${node.className} ${Math.round(node.getBoundingClientRect().right)}`,
      );
    return { scroll: element.scrollWidth, client, past };
  });
}

/** `nettools ARGS` in its own process, from the checkout, fed `stdin`. */
function nettools(args: string[], stdin?: Uint8Array): { code: number; stdout: Buffer; stderr: string } {
  const ran = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], {
    cwd: ROOT,
    stdin: stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: ran.exitCode ?? -1, stdout: ran.stdout, stderr: ran.stderr.toString() };
}

function scratch(name: string, text: string): string {
  const path = join(OUTPUT, name);
  writeFileSync(path, text);
  return path;
}

/** Clicks the Download button inside `region` and returns the downloaded file's bytes. */
async function downloaded(page: Page, region: Locator, label: RegExp): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    region.getByRole("button", { name: label }).click(),
  ]);
  return readFileSync((await download.path())!);
}

/** Each panel: what a user does in it, and what shows it answered. */
interface Panel {
  name: string;
  /** The panel's element, screenshotted. */
  box: string;
  use(page: Page): Promise<void>;
}

const KEY = () => readFileSync(join(GENERATED_DIR, "keys", "leaf-ed25519.key"), "utf8");

const PANELS: Panel[] = [
  {
    name: "calculator",
    box: "#calc-tool",
    async use(page) {
      await page
        .getByLabel("Address or CIDR", { exact: true })
        .fill("2001:db8:85a3:8d3:1319:8a2e:370:7348/64");
      await page.getByRole("button", { name: "Calculate" }).click();
      await page.locator("#calc-result .map").waitFor();
    },
  },
  {
    name: "cover",
    box: "#cover-tool",
    async use(page) {
      await page.getByRole("button", { name: "Compute the cover" }).click();
      await page.locator("#cover-result dl").waitFor();
    },
  },
  {
    name: "subtract",
    box: "#subtract-tool",
    async use(page) {
      await page.getByRole("button", { name: "Subtract" }).click();
      await page.locator("#subtract-result .map").first().waitFor();
    },
  },
  {
    name: "compare",
    box: "#compare-tool",
    async use(page) {
      await page.getByLabel("List A").fill("10.0.0.0/24\n2001:db8:ffff:ffff:ffff:ffff:ffff:0/112");
      await page.getByLabel("List B").fill("192.0.2.1\n2001:db8:ffff:ffff:ffff:ffff:ffff:8000/113");
      await page.getByRole("button", { name: "Compare", exact: true }).click();
      await page.locator("#compare-result .map").first().waitFor();
    },
  },
  {
    name: "range",
    box: "#range-tool",
    async use(page) {
      await page.getByLabel("Start address").fill("2001:db8:ffff:ffff:ffff:ffff:ffff:1");
      await page.getByLabel("End address").fill("2001:db8:ffff:ffff:ffff:ffff:ffff:ff00");
      await page.getByRole("button", { name: "Convert the range" }).click();
      await page.locator("#range-result table").waitFor();
    },
  },
  {
    name: "merge",
    box: "#merge-tool",
    async use(page) {
      await page.getByLabel(/Remove special-purpose space/).check();
      await page.getByLabel("Format", { exact: true }).selectOption("nft");
      await page.getByRole("button", { name: "Merge", exact: true }).click();
      await page.locator("#merge-result pre.reasons, #merge-result p.ok").first().waitFor();
    },
  },
  {
    name: "rdns",
    box: "#rdns-tool",
    async use(page) {
      await page.getByLabel("Block or address").fill("2001:db8:abcd:12::/62");
      await page.getByRole("button", { name: "Show zones" }).click();
      await page.getByRole("textbox", { name: "For BIND (as nettools rdns --bind)" }).waitFor();
    },
  },
  {
    name: "usage",
    box: "#usage-tool",
    async use(page) {
      await page.getByRole("button", { name: "Show usage" }).click();
      await page.locator("#usage-meter").waitFor();
    },
  },
  {
    name: "subnets",
    box: "#subnets-tool",
    async use(page) {
      await page.getByLabel(/Cloud provider/).selectOption("aws");
      await page.getByRole("button", { name: "Plan" }).click();
      await page.locator("#subnets-result table").waitFor();
    },
  },
  {
    name: "split",
    box: "#split-tool",
    async use(page) {
      await page.getByRole("button", { name: "Split", exact: true }).click();
      await page.locator("#split-result table").waitFor();
    },
  },
  {
    name: "contains",
    box: "#contains-tool",
    async use(page) {
      await page.getByRole("button", { name: "Look up" }).click();
      await page.locator("#contains-result table").waitFor();
    },
  },
  {
    name: "allocate",
    box: "#allocate-tool",
    async use(page) {
      await page.getByRole("button", { name: "Allocate", exact: true }).click();
      await page.locator("#allocate-result table").waitFor();
    },
  },
  {
    name: "match",
    box: "#match-tool",
    async use(page) {
      await page.getByRole("button", { name: "Match", exact: true }).click();
      await page.locator("#match-verdict").waitFor();
    },
  },
  {
    name: "certificates",
    box: "#certificates",
    async use(page) {
      await page.getByLabel("PEM certificates").fill(chainPem("chain-ordered"));
      await page.getByRole("button", { name: "Inspect the bundle" }).click();
      await page.locator("#cert-result table").first().waitFor();
    },
  },
  {
    name: "key-match",
    box: "#key-match",
    async use(page) {
      await page.getByLabel("Private key (PEM)").fill(KEY());
      await page.getByLabel("Certificates (PEM)").fill(chainPem("ed25519"));
      await page.getByRole("button", { name: "Check the match" }).click();
      await page.locator("#key-verdict").waitFor();
    },
  },
  {
    name: "myip",
    box: "#myip",
    async use(page) {
      await page.getByRole("button", { name: "Show my IP" }).click();
      await page.locator("#myip-result > *").first().waitFor();
    },
  },
];

describe("every panel at 390 px and 1280 px", () => {
  for (const width of [390, 1280]) {
    test(
      `${width} px: each panel answers without sideways scrolling; axe finds nothing serious; screenshots`,
      async () => {
        filePath("chain-leaf.der"); // the certificate fixtures exist
        const v = await visit(width);
        const overflowing: string[] = [];
        for (const panel of PANELS) {
          await panel.use(v.page);
          const measured = await widths(v.page);
          if (measured.scroll > measured.client)
            overflowing.push(
              `${panel.name}: ${measured.scroll} > ${measured.client}: ${measured.past.join(", ")}`,
            );
          await v.page.locator(panel.box).screenshot({ path: join(OUTPUT, `${width}-${panel.name}.png`) });
        }
        await v.page.screenshot({ path: join(OUTPUT, `${width}-page.png`), fullPage: true });
        expect(overflowing).toEqual([]);
        expect(await axe(v.page, `${width}`)).toEqual([]);
        expect(v.blocked).toEqual([]);
        expect(v.problems).toEqual([]);
      },
      TIME_LIMIT_MS,
    );
  }
});

describe("the page's texts are the CLI's", () => {
  test(
    "merge: lines, nft (inet and ip), ipset and Cisco equal nettools merge --format …, on screen and downloaded; -x's reasons equal its stderr",
    async () => {
      const v = await visit(1280);
      const entries = [
        "0.0.0.0/8",
        "10.0.0.0/7",
        "8.8.8.0/24",
        "8.8.9.0/24",
        "2001:db8::/32",
        "2606:4700::/32",
        "1.1.1.1",
      ];
      const file = scratch("merge-input.txt", `${entries.join("\n")}\n`);
      await v.page.getByLabel("Entries to merge").fill(entries.join("\n"));
      await v.page.getByLabel(/Remove special-purpose space/).check();
      const cases: { format: string; setName?: string; table?: string; family?: string; args: string[] }[] = [
        { format: "lines", args: [] },
        { format: "nft", setName: "blocklist", args: ["--format", "nft", "--set-name", "blocklist"] },
        {
          format: "nft",
          setName: "blocklist",
          table: "filter",
          family: "ip",
          args: ["--format", "nft", "--set-name", "blocklist", "--table", "filter", "--family", "ip"],
        },
        { format: "ipset", setName: "feed", args: ["--format", "ipset", "--set-name", "feed"] },
        { format: "cisco", args: ["--format", "cisco"] },
      ];
      const result = v.page.locator("#merge-result");
      for (const c of cases) {
        await v.page.getByLabel("Format", { exact: true }).selectOption(c.format);
        await v.page.getByLabel("Set name").fill(c.setName ?? "nettools");
        await v.page.getByLabel("nft table", { exact: true }).fill(c.table ?? "nettools");
        await v.page.getByLabel("nft table family").selectOption(c.family ?? "inet");
        await v.page.evaluate(() => document.querySelector("#merge-result")?.replaceChildren());
        await v.page.getByRole("button", { name: "Merge", exact: true }).click();
        const box = result.getByRole("textbox", { name: /^As nettools merge/ });
        await box.waitFor();
        const cli = nettools(["merge", "-x", ...c.args, "-f", file]);
        expect(cli.code).toBe(0);
        const expected = cli.stdout.toString();
        if (c.format === "lines") expect(`${await box.inputValue()}\n`).toBe(expected);
        else expect(await box.inputValue()).toBe(expected);
        expect(await box.getAttribute("aria-label")).toBe(
          `As nettools merge -x${c.args.length ? ` ${c.args.join(" ")}` : ""} prints it`,
        );
        expect((await downloaded(v.page, result, /^Download /)).toString()).toBe(expected);
        const notes = cli.stderr.split("\n").filter((line) => line.startsWith("note: "));
        expect(notes.length).toBe(c.family === "ip" ? 1 : 0);
        for (const note of notes) expect(await result.textContent()).toContain(note);
        // The reasons, as the CLI says them for a file (without its FILE:LINE place).
        const reasons = (await result.locator("pre.reasons").textContent())?.split("\n") ?? [];
        const said = cli.stderr
          .split("\n")
          .filter((line) => /: (excluded|cut) /.test(line))
          .map((line) => line.replace(/^.*?:\d+: /, ""));
        expect(reasons).toEqual(said);
        expect(reasons.length).toBeGreaterThan(1);
      }
      // A set name nft or ipset would refuse is refused here in the CLI's words.
      await v.page.getByLabel("Format", { exact: true }).selectOption("ipset");
      await v.page.getByLabel("Set name").fill("bad name");
      await v.page.getByRole("button", { name: "Merge", exact: true }).click();
      const alert = result.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        nettools(["merge", "--format", "ipset", "--set-name", "bad name", "10.0.0.0/8"])
          .stderr.split("\n")[0]!
          .replace(/^error: /, ""),
      );
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "reverse zones: the zones and the BIND text equal nettools rdns and rdns --bind --ns, for RFC 2317, octets and nibbles",
    async () => {
      const v = await visit(390);
      const result = v.page.locator("#rdns-result");
      for (const [cidr, ns] of [
        ["192.0.2.64/26", "ns1.example.org"],
        ["10.16.0.0/14", ""],
        ["2001:db8:abcd:12::/62", "ns.example.net."],
      ] as const) {
        await v.page.getByLabel("Block or address").fill(cidr);
        await v.page.getByLabel(/Name server/).fill(ns);
        await v.page.evaluate(() => document.querySelector("#rdns-result")?.replaceChildren());
        await v.page.getByRole("button", { name: "Show zones" }).click();
        const bind = result.getByRole("textbox", { name: "For BIND (as nettools rdns --bind)" });
        await bind.waitFor();
        const cli = nettools(["rdns", "--bind", ...(ns ? ["--ns", ns] : []), cidr]);
        expect(cli.code).toBe(0);
        expect(await bind.inputValue()).toBe(cli.stdout.toString());
        expect((await downloaded(v.page, result, /^Download reverse-zones/)).toString()).toBe(
          cli.stdout.toString(),
        );
        const zones = nettools(["rdns", cidr]).stdout.toString();
        expect(`${await result.getByRole("textbox", { name: /^The zones/ }).inputValue()}\n`).toBe(zones);
      }
      await v.page.getByLabel(/Name server/).fill("ns one");
      await v.page.getByRole("button", { name: "Show zones" }).click();
      await result.getByRole("alert").waitFor();
      expect(nettools(["rdns", "--bind", "--ns", "ns one", "192.0.2.0/24"]).code).toBe(2);
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "the Terraform plan: nettools subnets, and subnets --cloud P for each provider, byte for byte; a block too small for the provider refused as the CLI refuses it",
    async () => {
      const v = await visit(390);
      const result = v.page.locator("#subnets-result");
      for (const cloud of ["", "aws", "azure", "gcp", "oci"]) {
        await v.page.getByLabel("Prefix", { exact: true }).fill("10.1.0.0/16");
        await v.page.getByLabel(/New bits/).fill("4 4 8 4");
        await v.page.getByLabel(/Cloud provider/).selectOption(cloud);
        await v.page.evaluate(() => document.querySelector("#subnets-result")?.replaceChildren());
        await v.page.getByRole("button", { name: "Plan" }).click();
        const box = result.getByRole("textbox", { name: /^As nettools subnets/ });
        await box.waitFor();
        const cli = nettools([
          "subnets",
          ...(cloud ? ["--cloud", cloud] : []),
          "10.1.0.0/16",
          "4",
          "4",
          "8",
          "4",
        ]);
        expect(cli.code).toBe(0);
        const expected = cli.stdout.toString();
        const shown = await box.inputValue();
        expect(cloud ? shown : `${shown}\n`).toBe(expected);
        expect((await downloaded(v.page, result, /^Download subnets/)).toString()).toBe(expected);
        if (cloud) {
          const usable = expected
            .split("\n")
            .filter(Boolean)
            .map((line) => line.split("\t")[1] ?? "");
          expect(await result.locator("tbody td:nth-child(4)").allTextContents()).toEqual(usable);
          const total = usable.reduce((sum, n) => sum + Number(n), 0);
          expect(await result.locator("dl").textContent()).toContain(`Usable in all (${cloud})${total}`);
        }
      }
      await v.page.getByLabel("Prefix", { exact: true }).fill("10.1.0.0/24");
      await v.page.getByLabel(/New bits/).fill("6 8");
      await v.page.getByLabel(/Cloud provider/).selectOption("oci");
      await v.page.getByRole("button", { name: "Plan" }).click();
      const alert = result.getByRole("alert");
      await alert.waitFor();
      const cli = nettools(["subnets", "--cloud", "oci", "10.1.0.0/24", "6", "8"]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain("10.1.0.4/32 is smaller than /30");
      expect(await alert.textContent()).toContain("10.1.0.4/32 is smaller than /30");
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "log matching: each mode equals nettools match -f PATTERNS on the same log, on screen and downloaded; the log is never sent",
    async () => {
      const v = await visit(390);
      const requests: string[] = [];
      // What a request could carry the log in: anything but fetching the page's own assets.
      v.page.on("request", (request) => {
        if (request.method() !== "GET" || !new URL(request.url()).pathname.startsWith("/assets/"))
          requests.push(`${request.method()} ${request.url()}`);
      });
      const patterns =
        "203.0.113.0/24  TEST-NET-3\n198.51.100.0/24\tDOC-2 # comment\n2001:db8::/32  documentation\n8.8.4.0/24  GOOGLE-DNS\nnot-a-pattern\n";
      const log = [
        "Nov 28 10:00:01 sshd[811]: Failed password for root from 203.0.113.5 port 51234",
        "Nov 28 10:00:02 sshd[812]: Accepted publickey for ops from 192.0.2.10 port 40022",
        'Nov 28 10:00:03 nginx: [2001:db8::5]:443 "GET / HTTP/1.1" 200 é',
        '{"remote_addr":"198.51.100.77","x":"10.0.0.1"}',
        "SRC=127.0.0.1 DST=203.0.113.9",
        "no address here",
        "1.2.3.4.5 and 010.0.0.1",
        "client 8.8.8.8 resolver",
        // Outside every special-purpose block: still matched with -x.
        "resolver 8.8.4.4 answered",
      ].join("\n");
      const patternFile = scratch("patterns.txt", patterns);
      await v.page.getByLabel(/^Patterns/).fill(patterns);
      await v.page.getByLabel("Log", { exact: true }).fill(log);
      const result = v.page.locator("#match-result");
      const modes = [
        { id: "match-mode-lines", flags: [] as string[] },
        { id: "match-mode-invert", flags: ["-v"] },
        { id: "match-mode-count", flags: ["-c"] },
        { id: "match-mode-only", flags: ["-o"] },
        { id: "match-mode-pattern", flags: ["--print-pattern"] },
      ];
      for (const exclude of [false, true]) {
        await v.page.locator("#match-exclude-special").setChecked(exclude);
        for (const mode of modes) {
          await v.page.locator(`#${mode.id}`).check();
          await v.page.evaluate(() => document.querySelector("#match-result")?.replaceChildren());
          await v.page.getByRole("button", { name: "Match", exact: true }).click();
          const box = result.getByRole("textbox", { name: /^As nettools match/ });
          await box.waitFor();
          const flags = [...mode.flags, ...(exclude ? ["-x"] : [])];
          const cli = nettools(["match", ...flags, "-f", patternFile], new TextEncoder().encode(log));
          expect(await box.inputValue()).toBe(cli.stdout.toString());
          expect(await box.getAttribute("aria-label")).toBe(
            `As nettools match ${[...flags, "-f patterns.txt < log"].join(" ")} prints it`,
          );
          expect(Buffer.compare(await downloaded(v.page, result, /^Download matches/), cli.stdout)).toBe(0);
          const warnings = cli.stderr
            .split("\n")
            .filter(Boolean)
            .map((line) => line.replace(patternFile, "patterns.txt"));
          expect((await result.locator("pre.reasons").textContent())?.split("\n")).toEqual(warnings);
          expect(await v.page.locator("#match-verdict").textContent()).toContain(
            cli.code === 0 ? "selected" : "No line selected (exit 1)",
          );
          expect(cli.stdout.length).toBeGreaterThan(0);
        }
      }
      // The log stays in the browser: matching makes no request at all.
      expect(requests).toEqual([]);
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "pool usage: the bar and every figure equal nettools usage --json",
    async () => {
      const v = await visit(390);
      await v.page.getByLabel("Pool", { exact: true }).fill("10.0.0.0/22\n10.0.8.0/24");
      await v.page.getByLabel("Used blocks").fill("10.0.0.0/24\n10.0.1.64/26\n192.0.2.0/24");
      await v.page.getByRole("button", { name: "Show usage" }).click();
      const meter = v.page.locator("#usage-meter");
      await meter.waitFor();
      const used = scratch("used.txt", "10.0.0.0/24\n10.0.1.64/26\n192.0.2.0/24\n");
      const cli = nettools(["usage", "--json", "10.0.0.0/22", "10.0.8.0/24", "--used", used]);
      expect(cli.code).toBe(0);
      const value = JSON.parse(cli.stdout.toString()) as {
        total: string;
        used: string;
        free: string;
        outsidePool: string;
        percentUsed: number;
        largestFree: string | null;
        freeBySize: { prefixLength: number; blocks: string }[];
      };
      expect(Number(await meter.getAttribute("value"))).toBe(value.percentUsed);
      expect(await v.page.locator("#usage-result .usage-bar").textContent()).toContain(
        `${value.percentUsed.toFixed(2)}% used`,
      );
      expect(await v.page.locator("#usage-result dd").allTextContents()).toEqual([
        value.total,
        value.used,
        value.free,
        value.outsidePool,
        value.largestFree ?? "",
      ]);
      expect(await v.page.locator("#usage-result tbody tr").allTextContents()).toEqual(
        value.freeBySize.map(({ prefixLength, blocks }) => `/${prefixLength}${blocks}`),
      );
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );

  test(
    "the map zooms to the smallest blocks holding sparse lists, not 0.0.0.0/0",
    async () => {
      const v = await visit(390);
      await v.page.getByLabel("List A").fill("10.0.0.0/24\n198.51.100.0/24");
      await v.page.getByLabel("List B").fill("10.0.0.128/25\n192.0.2.1");
      await v.page.getByRole("button", { name: "Compare", exact: true }).click();
      const captions = v.page.locator("#compare-result figcaption");
      await captions.first().waitFor();
      expect(await captions.allTextContents()).toEqual([
        "IPv4: both lists in 10.0.0.0/24 (256 addresses), part 1 of 3",
        "IPv4: both lists in 192.0.2.1/32 (1 address), part 2 of 3",
        "IPv4: both lists in 198.51.100.0/24 (256 addresses), part 3 of 3",
      ]);
      expect(await v.page.locator("#compare-result .map-bar").first().textContent()).toBe(
        "only in A10.0.0.0/25in both10.0.0.128/25",
      );
      await v.page.locator("#compare-tool").screenshot({ path: join(OUTPUT, "390-compare-zoomed.png") });
      expect(v.problems).toEqual([]);
    },
    TIME_LIMIT_MS,
  );
});
