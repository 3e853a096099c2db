/**
 * `nettools subnets` (CONTRACT §8.9, Terraform's cidrsubnets) as a person runs it, through the
 * real process: lines into a pipe and on a terminal, the exit codes, `--json` equal to the
 * server's answer (and `--server` giving the same lines).
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, runOnTerminal, scratchRunner } from "./run.ts";

const { nettools, dir: scratch } = scratchRunner("nettools-subnets-");
const server = serverPerFile();

describe("subnets", () => {
  test("Terraform's example, one CIDR a line; never backfilling", async () => {
    expect(await nettools(["subnets", "10.1.0.0/16", "4", "4", "8", "4"])).toEqual({
      code: 0,
      stdout: "10.1.0.0/20\n10.1.16.0/20\n10.1.32.0/24\n10.1.48.0/20\n",
      stderr: "",
    });
    expect((await nettools(["subnets", "10.0.0.0/16", "8", "4", "8"])).stdout).toBe(
      "10.0.0.0/24\n10.0.16.0/20\n10.0.32.0/24\n",
    );
    expect((await runOnTerminal(["subnets", "2001:db8::/56", "8", "8"], scratch)).stdout).toBe(
      "2001:db8::/64\n2001:db8:0:1::/64\n",
    );
  });

  test("no room: exit 2, INSUFFICIENT_SPACE naming the argument, its length and the last block", async () => {
    const ran = await nettools(["subnets", "10.0.0.0/24", "1", "2", "1"]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain(
      "INSUFFICIENT_SPACE: arg 4: newbits argument 3: not enough remaining address space for a subnet with a prefix of 25 bits after 10.0.0.128/26",
    );
  });

  test("bad NEWBITS: Terraform's words at each argument's place, or a usage error; exit 2", async () => {
    const ran = await nettools(["subnets", "10.0.0.0/30", "0", "3"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("arg 2: newbits argument 1 (0): must extend prefix by at least one bit");
    expect(ran.stderr).toContain("arg 3: newbits argument 2 (3): would extend prefix to 33 bits");
    expect((await nettools(["subnets", "10.0.0.0/16", "four"])).code).toBe(2);
    expect((await nettools(["subnets"])).code).toBe(2);
  });

  test("--json is the server's answer; --server gives the same lines", async () => {
    const json = await nettools(["subnets", "--json", "fd00:fd12:3456:7890::/56", "16", "16", "16", "32"]);
    const body = { prefix: "fd00:fd12:3456:7890::/56", newbits: [16, 16, 16, 32] };
    expect(json.stdout).toBe(`${await postForText(server.url, "/v1/cidr-subnets", body)}\n`);
    const local = await nettools(["subnets", "10.1.0.0/16", "4", "4", "8", "4"]);
    expect(await nettools(["subnets", "--server", server.url, "10.1.0.0/16", "4", "4", "8", "4"])).toEqual(
      local,
    );
    const remoteShort = await nettools(["subnets", "--server", server.url, "10.0.0.0/24", "1", "1", "1"]);
    expect(remoteShort.code).toBe(2);
  });
});

describe("subnets --cloud (the page's plan, issue 34.7)", () => {
  test("each block with the addresses the provider leaves usable, as split --cloud writes them", async () => {
    const ran = await nettools(["subnets", "--cloud", "aws", "10.1.0.0/16", "4", "4", "8", "4"]);
    expect(ran).toEqual({
      code: 0,
      stdout:
        "10.1.0.0/20\t4091\t10.1.0.4\t10.1.15.254\n10.1.16.0/20\t4091\t10.1.16.4\t10.1.31.254\n" +
        "10.1.32.0/24\t251\t10.1.32.4\t10.1.32.254\n10.1.48.0/20\t4091\t10.1.48.4\t10.1.63.254\n",
      stderr: "",
    });
    // A block of the plan is the same line split --cloud writes for it.
    const split = await nettools(["split", "--cloud", "gcp", "10.1.32.0/24", "24"]);
    const plan = await nettools(["subnets", "--cloud", "gcp", "10.1.0.0/16", "4", "4", "8"]);
    expect(plan.stdout.split("\n")[2]).toBe(split.stdout.trimEnd());
  });

  test("a block outside the provider's sizes, or IPv6: exit 2 naming it, nothing on stdout", async () => {
    const small = await nettools(["subnets", "--cloud", "oci", "10.1.0.0/24", "6", "8"]);
    expect(small.code).toBe(2);
    expect(small.stdout).toBe("");
    expect(small.stderr).toContain("--cloud oci: 10.1.0.4/32 is smaller than /30");
    const v6 = await nettools(["subnets", "--cloud", "aws", "2001:db8::/56", "8"]);
    expect(v6.code).toBe(2);
    expect(v6.stderr).toContain("2001:db8::/64 is IPv6");
    expect((await nettools(["subnets", "--cloud", "aws", "--json", "10.0.0.0/16", "4"])).code).toBe(2);
    expect((await nettools(["subnets", "--cloud", "ibm", "10.0.0.0/16", "4"])).code).toBe(2);
  });
});
