/**
 * The toolbox commands of issue 18 as a person runs them: `split` against `sipcalc`, `alloc`,
 * `range` over a file of ranges, `match` through the real process (a closed pipe included), list
 * files with trailing comments, and the --json answers equal to the server's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { CLI, postForText, runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-toolbox-"));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

function nettools(args: string[], stdin?: string) {
  return runNettools(args, { cwd: scratch, ...(stdin === undefined ? {} : { stdin }) });
}

function file(name: string, text: string): string {
  writeFileSync(join(scratch, name), text);
  return name;
}

/** `sipcalc -s` (IPv4) or `-S` (IPv6): each subnet's first and last address, canonical. */
function sipcalcSplit(cidr: string, prefixLength: number): [string, string][] {
  const v6 = cidr.includes(":");
  const ran = Bun.spawnSync(["sipcalc", v6 ? "-S" : "-s", String(prefixLength), cidr]);
  if (ran.exitCode !== 0) throw new Error(ran.stderr.toString());
  const canonical = (text: string) => {
    const parsed = parseAddr(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value.toString();
  };
  // "Network - FIRST - LAST", IPv6 with LAST on the next line
  const text = ran.stdout.toString().replace(/-\n\s+/g, "- ");
  return [...text.matchAll(/^Network\s+-\s+(\S+)\s+-\s+(\S+)/gm)].map((m) => [
    canonical(m[1]!),
    canonical(m[2]!),
  ]);
}

describe("split against sipcalc", () => {
  test.each([
    ["10.0.0.0/22", 24],
    ["192.168.1.0/26", 28],
    ["172.16.0.0/12", 16],
    ["10.1.2.3/30", 32],
    ["2001:db8::/62", 64],
    ["2001:db8:ab00::/40", 44],
  ] as const)("%s into /%d", async (cidr, prefixLength) => {
    const ran = await nettools(["split", cidr, String(prefixLength)]);
    expect(ran.code).toBe(0);
    const ours = ran.stdout
      .trimEnd()
      .split("\n")
      .map((line) => {
        const parsed = parsePrefix(line);
        if (!parsed.ok) throw new Error(parsed.message);
        expect(parsed.value.bits).toBe(prefixLength);
        return [parsed.value.first.toString(), parsed.value.last.toString()];
      });
    expect(ours).toEqual(sipcalcSplit(cidr, prefixLength));
  });

  test("/24 and 24 are the same; too many subnets is exit 2 with the count; --json is the server's", async () => {
    expect((await nettools(["split", "10.0.0.0/23", "/24"])).stdout).toBe("10.0.0.0/24\n10.0.1.0/24\n");
    const tooMany = await nettools(["split", "::/0", "64"]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain("18446744073709551616");
    const json = await nettools(["split", "--json", "10.0.0.0/22", "24"]);
    expect(json.stdout).toBe(
      `${await postForText(server.url, "/v1/cidr-split", { cidr: "10.0.0.0/22", prefixLength: 24 })}\n`,
    );
    expect((await nettools(["split", "10.0.0.0/22", "x"])).code).toBe(2);
  });
});

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

describe("range over a file of ranges", () => {
  test("one range a line in any spelling, comments skipped, CIDRs in input order", async () => {
    const ranges = file(
      "ranges.txt",
      "# office\n10.0.0.0-10.0.0.9\n\n192.0.2.0 192.0.2.255  # lab\n2001:db8::1 - 2001:db8::2\n",
    );
    const ran = await nettools(["range", ranges]);
    expect(ran).toEqual({
      code: 0,
      stdout: "10.0.0.0/29\n10.0.0.8/31\n192.0.2.0/24\n2001:db8::1/128\n2001:db8::2/128\n",
      stderr: "",
    });
    const stdin = await nettools(["range", "-"], "10.0.0.0-10.0.0.9\n192.0.2.0 192.0.2.255\n");
    expect(stdin.stdout).toBe("10.0.0.0/29\n10.0.0.8/31\n192.0.2.0/24\n");
    const json = await nettools(["range", "--json", ranges]);
    expect(
      json.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).cidrCount),
    ).toEqual([2, 1, 2]);
  });

  test("a bad line is exit 2 at FILE:LINE", async () => {
    const bad = await nettools(["range", file("bad.txt", "10.0.0.0-10.0.0.9\n10.0.0.9 10.0.0.1\n")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bad.txt:2");
    const garbage = await nettools(["range", file("garbage.txt", "10.0.0.0/24\n")]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain("garbage.txt:1");
  });
});

describe("list files and the messages for other notations", () => {
  test("netmask notation and a range in a list name the accepted form and the converter", async () => {
    const ran = await nettools([
      "merge",
      "-f",
      file("mixed.txt", "10.0.0.0/255.255.255.0\n10.0.1.0-10.0.1.255\n"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("mixed.txt:1");
    expect(ran.stderr).toContain("write the prefix length instead: 10.0.0.0/24");
    expect(ran.stderr).toContain("mixed.txt:2");
    expect(ran.stderr).toContain("nettools range");
  });
});

describe("match through the real process", () => {
  const log = file(
    "access.log",
    Array.from({ length: 200_000 }, (_, i) => `${i} 10.${(i >> 8) & 255}.${i & 255}.1 GET /`).join("\n"),
  );

  test("lines, -c and the exit status", async () => {
    const ran = await nettools(["match", "-e", "10.0.0.0/16", log]);
    expect(ran.code).toBe(0);
    // 10.0.x.1 for i below 256 in each 65536: four runs of 256 lines
    expect(ran.stdout.split("\n").length - 1).toBe(4 * 256);
    expect((await nettools(["match", "-c", "-e", "10.0.0.0/24", log])).stdout).toBe("4\n");
    expect((await nettools(["match", "-e", "192.0.2.0/24", log])).code).toBe(1);
  });

  test("a closed pipe (| head -1) ends it quietly with its own exit status", async () => {
    const script = `"${process.execPath}" "${CLI}" match -e 10.0.0.0/8 "${join(scratch, log)}" | head -1; echo "status=\${PIPESTATUS[0]}"`;
    const ran = Bun.spawnSync(["bash", "-c", script], { env: { PATH: process.env.PATH ?? "" } });
    expect(ran.stdout.toString()).toBe("0 10.0.0.1 GET /\nstatus=0\n");
    expect(ran.stderr.toString()).toBe("");
  });
});
