/**
 * `nettools alloc` as a person runs it (CONTRACT §7.4): first fit from a file of used blocks with
 * comments, the next call with the answer added giving the next blocks; a full pool is exit 1
 * saying how many fit, invalid input exit 2; `--json` equal to the server's answer; its help
 * sends Terraform's cidrsubnets to `nettools subnets`.
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-alloc-");
const server = serverPerFile();

describe("alloc", () => {
  test("first fit from a file of used blocks with comments; the next call with the answer added gives the next blocks", async () => {
    const used = file("used.txt", "10.0.0.0/26   # web\n\n10.0.0.128/27 # db\n");
    const first = await nettools(["alloc", "-l", "26", "-n", "2", "-U", used, "10.0.0.0/24"]);
    expect(first).toEqual({ code: 0, stdout: "10.0.0.64/26\n10.0.0.192/26\n", stderr: "" });
    const next = await nettools([
      "alloc",
      "-l",
      "/27",
      "-U",
      used,
      "-u",
      "10.0.0.64/26",
      "-u",
      "10.0.0.192/26",
      "10.0.0.0/24",
    ]);
    expect(next.stdout).toBe("10.0.0.160/27\n");
  });

  test("too little space is exit 1 saying how many fit; --json is the server's answer", async () => {
    const short = await nettools(["alloc", "-l", "25", "-n", "3", "10.0.0.0/24"]);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("INSUFFICIENT_SPACE");
    expect(short.stderr).toContain("Only 2 free blocks of /25");
    const body = { within: ["10.0.0.0/16"], used: ["10.0.0.0/24"], prefixLength: 24, count: 2 };
    const json = await nettools([
      "alloc",
      "--json",
      "-l",
      "24",
      "-n",
      "2",
      "-u",
      "10.0.0.0/24",
      "10.0.0.0/16",
    ]);
    expect(json.stdout).toBe(`${await postForText(server.url, "/v1/cidr-allocate", body)}\n`);
    expect((await nettools(["alloc", "10.0.0.0/24"])).code).toBe(2);
  });
});

describe("alloc's exit codes", () => {
  test("a full pool is exit 1, saying how many fit; invalid input is exit 2", async () => {
    const full = await nettools(["alloc", "-l", "25", "-n", "3", "10.0.0.0/24"]);
    expect(full.code).toBe(1);
    expect(full.stdout).toBe("");
    expect(full.stderr).toContain("INSUFFICIENT_SPACE");
    expect(full.stderr).toContain("Only 2 free blocks of /25");
    const json = await nettools(["alloc", "--json", "-l", "25", "-n", "3", "10.0.0.0/24"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.code).toBe("INSUFFICIENT_SPACE");
    expect((await nettools(["alloc", "-l", "25", "10.0.0.0/33"])).code).toBe(2);
    expect((await nettools(["alloc", "-l", "33", "10.0.0.0/24"])).code).toBe(2);
    expect((await nettools(["alloc", "-l", "25", "-n", "2", "10.0.0.0/24"])).code).toBe(0);
  });
});

test("alloc --help does not call first fit Terraform's cidrsubnets", async () => {
  const help = (await nettools(["alloc", "--help"])).stdout;
  expect(help).not.toMatch(/as\s+Terraform's\s+cidrsubnets/);
  expect(help).toContain("nettools subnets");
});
