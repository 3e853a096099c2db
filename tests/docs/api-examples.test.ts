/**
 * docs/api.md cannot rot: every `sh` block with a curl command is run, as written, with the
 * real `curl` against the real server (only the base URL is replaced), and its output must be
 * what the block after it shows:
 * - `json`: the body of a 200, compared as JSON;
 * - `text`: the body of a 200, byte for byte;
 * - `http` (from `curl -i`): the status line exactly, each shown header (others are left out
 *   of the doc on purpose), then the body, as JSON when it parses, else byte for byte.
 * The status of json/text examples comes from a header dump that a private curlrc adds, so the
 * commands stay exactly as a reader would type them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { DBIP_FILES } from "../fixtures/geoip/expected.ts";

const DOC = new URL("../../docs/api.md", import.meta.url).pathname;
const BASE_URL = "http://localhost:3000";

interface Example {
  line: number;
  command: string;
  lang: "json" | "text" | "http";
  expected: string;
}

interface Block {
  line: number;
  lang: string;
  body: string;
}

function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] ?? "");
    blocks.push({ line: start + 1, lang: open[1] ?? "", body: `${body.join("\n")}\n` });
  }
  return blocks;
}

/** Each curl block with the output block right after it. */
function examplesOf(markdown: string): Example[] {
  const blocks = fencedBlocks(markdown);
  const examples: Example[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.lang !== "sh" || !/\bcurl\b/.test(block.body)) continue;
    const output = blocks[index + 1];
    if (output === undefined || !["json", "text", "http"].includes(output.lang)) {
      throw new Error(
        `docs/api.md:${block.line}: a curl example must be followed by a json, text or http block`,
      );
    }
    examples.push({
      line: block.line,
      command: block.body,
      lang: output.lang as Example["lang"],
      expected: output.body,
    });
  }
  return examples;
}

let server: RunningServer;
let scratch: string;
const examples = examplesOf(readFileSync(DOC, "utf8"));

beforeAll(async () => {
  // The GeoIP test databases, so the databases example is a real answer (CONTRACT §8.10).
  server = await startServer({
    GEOIP_ASN_DB: DBIP_FILES.asn,
    GEOIP_COUNTRY_DB: DBIP_FILES.country,
  });
  scratch = mkdtempSync(join(tmpdir(), "api-examples-"));
});
afterAll(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function run(example: Example, index: number): Promise<{ stdout: string; status: number }> {
  const home = join(scratch, String(index));
  const headers = join(home, "headers");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".curlrc"), `dump-header = "${headers}"\n`);
  const child = spawn(["bash", "-c", example.command.replaceAll(BASE_URL, server.url)], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CURL_HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`docs/api.md:${example.line}: exit ${code}: ${stderr}`);
  const statusLines = readFileSync(headers, "utf8").match(/^HTTP\/[0-9.]+ [0-9]{3}/gm) ?? [];
  const status = Number(statusLines.at(-1)?.slice(-3));
  return { stdout, status };
}

function sameBody(actual: string, expected: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(expected);
  } catch {
    expect(actual).toBe(expected);
    return;
  }
  expect(JSON.parse(actual)).toEqual(parsed);
}

describe("docs/api.md examples", () => {
  test("there are examples for every endpoint and every error status", () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    const commands = examples.map((example) => example.command).join("\n");
    for (const path of [
      "/v1/health",
      "/v1/cidr-cover",
      "/v1/cidr-subtract",
      "/v1/range-to-cidrs",
      "/v1/public-ip",
    ]) {
      expect(commands).toContain(`${BASE_URL}${path}`);
    }
    const statuses = examples.filter((e) => e.lang === "http").map((e) => e.expected.slice(9, 12));
    for (const status of ["200", "400", "404", "405", "413", "415"]) expect(statuses).toContain(status);
  });

  for (const [index, example] of examples.entries()) {
    const title = example.command.split("\n").find((line) => line.includes("curl")) ?? example.command;
    test(`line ${example.line}: ${title.trim().slice(0, 90)}`, async () => {
      const { stdout, status } = await run(example, index);
      if (example.lang !== "http") {
        expect(status).toBe(200);
        if (example.lang === "json") sameBody(stdout, example.expected);
        else expect(stdout).toBe(example.expected);
        return;
      }
      const split = stdout.indexOf("\r\n\r\n");
      expect(split).toBeGreaterThan(0);
      const [statusLine = "", ...headerLines] = stdout.slice(0, split).split("\r\n");
      const body = stdout.slice(split + 4);
      const expectedSplit = example.expected.indexOf("\n\n");
      const [expectedStatus = "", ...expectedHeaders] = example.expected.slice(0, expectedSplit).split("\n");
      expect(statusLine).toBe(expectedStatus);
      expect(status).toBe(Number(expectedStatus.slice(9, 12)));
      const actualHeaders = new Map<string, string[]>();
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        actualHeaders.set(name, [...(actualHeaders.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      for (const line of expectedHeaders) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        expect({ header: name, values: actualHeaders.get(name) ?? [] }).toEqual({
          header: name,
          values: expect.arrayContaining([line.slice(colon + 1).trim()]) as unknown as string[],
        });
      }
      sameBody(body, example.expected.slice(expectedSplit + 2).replace(/\n$/, ""));
    });
  }
});
