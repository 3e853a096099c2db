/**
 * `nettools split` as a person runs it (CONTRACT §7.4, §8.9): every subnet against `sipcalc`, `/24`
 * and `24` alike, too many subnets as exit 2 with the count, `--count`, `--first` and `--index`
 * (Terraform's cidrsubnet), and `--json` equal to the server's answer, a page included.
 */
import { describe, expect, test } from "bun:test";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import { parsePrefix } from "../../src/domain/ip/prefix.ts";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools } = scratchRunner("nettools-split-");
const server = serverPerFile();

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

describe("split --count, --first, --index", () => {
  test("--count prints the exact number, however large", async () => {
    expect(await nettools(["split", "--count", "2001:db8::/32", "64"])).toEqual({
      code: 0,
      stdout: "4294967296\n",
      stderr: "",
    });
    expect((await nettools(["split", "--count", "::/0", "128"])).stdout).toBe(`${2n ** 128n}\n`);
  });

  test("--index N is Terraform's cidrsubnet; --first N the first N; both: N subnets from the index", async () => {
    // cidrsubnet("10.1.0.0/16", 8, 2) and cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)
    expect((await nettools(["split", "--index", "2", "10.1.0.0/16", "24"])).stdout).toBe("10.1.2.0/24\n");
    expect((await nettools(["split", "--index", "162", "fd00:fd12:3456:7890::/56", "72"])).stdout).toBe(
      "fd00:fd12:3456:7800:a200::/72\n",
    );
    expect((await nettools(["split", "--first", "2", "2001:db8::/32", "/64"])).stdout).toBe(
      "2001:db8::/64\n2001:db8:0:1::/64\n",
    );
    expect((await nettools(["split", "--first", "2", "--index", "3", "10.0.0.0/22", "24"])).stdout).toBe(
      "10.0.3.0/24\n",
    );
  });

  test("an index past the end, bad numbers and --count with a list option are exit 2", async () => {
    const past = await nettools(["split", "--index", "4", "10.0.0.0/22", "24"]);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain("--index must be below subnetCount 4");
    for (const args of [
      ["--first", "0"],
      ["--first", "10001"],
      ["--index", "-1"],
      ["--index", "07"],
      ["--count", "--first", "2"],
      ["--count", "--json"],
    ]) {
      expect({ args, code: (await nettools(["split", ...args, "10.0.0.0/8", "24"])).code }).toEqual({
        args,
        code: 2,
      });
    }
  });

  test("--json with a page is the server's answer", async () => {
    const body = { cidr: "2001:db8::/32", prefixLength: 64, offset: "65536", limit: 2 };
    const expected = `${await postForText(server.url, "/v1/cidr-split", body)}\n`;
    expect(
      (await nettools(["split", "--json", "--index", "65536", "--first", "2", "2001:db8::/32", "64"])).stdout,
    ).toBe(expected);
  });
});
