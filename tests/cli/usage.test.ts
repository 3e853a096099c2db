/** `nettools usage` (CONTRACT §12): the cidr-usage answer on a terminal, in --json, and with --server. */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-usage-");
const server = serverPerFile();

describe("nettools usage", () => {
  test("--json is the server's answer, locally and with --server; used from a file and from -U", async () => {
    const used = file("used.txt", "10.0.0.0/24   # web\n10.0.1.64/26\n192.0.2.0/24\n");
    const expected = `${await postForText(server.url, "/v1/cidr-usage", {
      pool: ["10.0.0.0/22"],
      used: ["10.0.0.0/24", "10.0.1.64/26", "192.0.2.0/24"],
    })}\n`;
    expect(await nettools(["usage", "--json", "10.0.0.0/22", "--used", used])).toEqual({
      code: 0,
      stdout: expected,
      stderr: "",
    });
    expect(
      await nettools(
        [
          "usage",
          "--json",
          "--server",
          server.url,
          "10.0.0.0/22",
          "-U",
          "10.0.0.0/24",
          "-U",
          "10.0.1.64/26",
          "--used",
          "-",
        ],
        "192.0.2.0/24\n",
      ),
    ).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  test("the lines: counts, percentage, largest free block, blocks by size", async () => {
    const ran = await nettools(["usage", "10.0.0.0/23", "-U", "10.0.0.0/24"]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("used              256 (50.00%)\n");
    expect(ran.stdout).toContain("largest free      10.0.1.0/24\n");
    expect(ran.stdout).toContain("  /32  256\n");
  });

  test("a bad used line is FILE:LINE, exit 2; --skip-invalid skips it", async () => {
    const used = file("bad.txt", "10.0.0.0/24\n10.0.0.999\n");
    const bad = await nettools(["usage", "10.0.0.0/23", "--used", used]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bad.txt:2: ");
    const skipped = await nettools(["usage", "--json", "--skip-invalid", "10.0.0.0/23", "--used", used]);
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout).used).toBe("256");
  });
});
