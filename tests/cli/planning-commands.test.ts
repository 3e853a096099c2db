/**
 * `nettools rdns`, `nettools subnets` and `--cloud` for `info` and `split` (CONTRACT §8.8–8.9) as a
 * person runs them, through the real process: lines into a pipe and on a terminal, several
 * arguments checked before anything is printed, the exit codes, `--json` equal to the server's
 * answer (and `--server` giving the same lines), and `alloc --help` no longer claiming Terraform.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { postForText, runNettools, runOnTerminal } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-planning-"));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const nettools = (args: string[]) => runNettools(args, { cwd: scratch });

describe("rdns", () => {
  test("zones one a line; an address is its PTR name; several arguments in order", async () => {
    const wide = await nettools(["rdns", "100.64.0.0/10"]);
    expect(wide.code).toBe(0);
    const lines = wide.stdout.trimEnd().split("\n");
    expect(lines.length).toBe(64);
    expect([lines[0], lines[63]]).toEqual(["64.100.in-addr.arpa.", "127.100.in-addr.arpa."]);
    expect(await nettools(["rdns", "192.0.2.7", "192.0.2.64/26", "2001:db8::/32"])).toEqual({
      code: 0,
      stdout: "7.2.0.192.in-addr.arpa.\n64/26.2.0.192.in-addr.arpa.\n8.b.d.0.1.0.0.2.ip6.arpa.\n",
      stderr: "",
    });
  });

  test("on a terminal: the same lines", async () => {
    const ran = await runOnTerminal(["rdns", "10.0.0.0/15"], scratch);
    expect(ran.stdout).toBe("0.10.in-addr.arpa.\n1.10.in-addr.arpa.\n");
  });

  test("every bad argument is reported at its place, nothing is printed, exit 2", async () => {
    const ran = await nettools(["rdns", "10.0.0.0/8", "10.0.0.256", "2001:db8::/32", "fe80::1%eth0"]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain('arg 2: "10.0.0.256" is not a valid IPv4 address');
    expect(ran.stderr).toContain('arg 4: "fe80::1%eth0" is not a valid IPv6 address: zone indexes');
    expect(ran.stderr.trimEnd().split("\n").length).toBe(2);
    expect((await nettools(["rdns"])).code).toBe(2);
  });

  test("--json: one result a line, the server's answer byte for byte; --server prints the same lines", async () => {
    const json = await nettools(["rdns", "--json", "192.168.0.0/17", "::ffff:192.0.2.0/120"]);
    expect(json.stdout).toBe(
      `${await postForText(server.url, "/v1/reverse-zones", { cidr: "192.168.0.0/17" })}\n${await postForText(server.url, "/v1/reverse-zones", { cidr: "::ffff:192.0.2.0/120" })}\n`,
    );
    const local = await nettools(["rdns", "100.64.0.0/10", "2001:db8::1"]);
    expect(await nettools(["rdns", "--server", server.url, "100.64.0.0/10", "2001:db8::1"])).toEqual(local);
  });
});

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

describe("--cloud", () => {
  test("info --cloud aws: the reserved addresses and what is left, as lines and as JSON", async () => {
    const text = await nettools(["info", "--cloud", "aws", "10.0.0.0/28"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("AWS (--cloud aws): 5 addresses reserved");
    expect(text.stdout).toMatch(/\n {2}10\.0\.0\.3 +future\n/);
    expect(text.stdout).toMatch(/\nusable \(aws\) +11 addresses\n/);
    expect(text.stdout).toMatch(/\nfirst usable \(aws\) +10\.0\.0\.4\n/);
    const json = JSON.parse((await nettools(["info", "--json", "--cloud", "oci", "192.0.2.0/30"])).stdout);
    expect(json.cidr).toBe("192.0.2.0/30");
    expect(json.cloud).toEqual({
      provider: "oci",
      reserved: [
        { address: "192.0.2.0", role: "network" },
        { address: "192.0.2.1", role: "router" },
        { address: "192.0.2.3", role: "broadcast" },
      ],
      usableAddressCount: "1",
      firstUsable: "192.0.2.2",
      lastUsable: "192.0.2.2",
    });
  });

  test("outside the provider's sizes, IPv6, or an unknown provider: exit 2 naming the bound", async () => {
    const small = await nettools(["info", "--cloud", "azure", "10.0.0.0/30"]);
    expect(small.code).toBe(2);
    expect(small.stderr).toContain("smaller than /29, the smallest subnet Azure allows");
    const large = await nettools(["info", "--cloud", "aws", "10.0.0.0/8"]);
    expect(large.code).toBe(2);
    expect(large.stderr).toContain("larger than /16, the largest subnet AWS allows");
    const v6 = await nettools(["info", "--json", "--cloud", "gcp", "2001:db8::/64"]);
    expect(v6.code).toBe(2);
    expect(JSON.parse(v6.stdout).error.code).toBe("INVALID_INPUT");
    expect((await nettools(["info", "--cloud", "ibm", "10.0.0.0/24"])).code).toBe(2);
  });

  test("split --cloud: CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST per subnet; --json adds cloud", async () => {
    expect(await nettools(["split", "--cloud", "gcp", "10.0.0.0/27", "28"])).toEqual({
      code: 0,
      stdout: "10.0.0.0/28\t12\t10.0.0.2\t10.0.0.13\n10.0.0.16/28\t12\t10.0.0.18\t10.0.0.29\n",
      stderr: "",
    });
    const json = await nettools(["split", "--json", "--cloud", "aws", "10.0.0.0/27", "28"]);
    const plain = JSON.parse(
      await postForText(server.url, "/v1/cidr-split", { cidr: "10.0.0.0/27", prefixLength: 28 }),
    );
    expect(JSON.parse(json.stdout)).toEqual({ ...plain, cloud: { provider: "aws", usablePerSubnet: "11" } });
  });

  test("split --cloud with subnets too small, or IPv6: exit 2, nothing on stdout", async () => {
    const small = await nettools(["split", "--cloud", "aws", "10.0.0.0/24", "29"]);
    expect(small).toMatchObject({ code: 2, stdout: "" });
    expect(small.stderr).toContain(
      "smaller than /28, the smallest subnet AWS allows (EC2 CreateSubnet: /16 to /28)",
    );
    expect((await nettools(["split", "--cloud", "oci", "2001:db8::/64", "66"])).code).toBe(2);
  });
});

test("alloc --help no longer calls first fit Terraform's cidrsubnets", async () => {
  const help = (await nettools(["alloc", "--help"])).stdout;
  expect(help).not.toMatch(/as\s+Terraform's\s+cidrsubnets/);
  expect(help).toContain("nettools subnets");
});
