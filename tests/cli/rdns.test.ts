/**
 * `nettools rdns` (CONTRACT §8.8) as a person runs it, through the real process: zones one a line
 * into a pipe and on a terminal, several arguments checked before anything is printed, the exit
 * codes, `--json` equal to the server's answer (and `--server` giving the same lines).
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, runOnTerminal, scratchRunner } from "./run.ts";

const { nettools, dir: scratch } = scratchRunner("nettools-rdns-");
const server = serverPerFile();

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
