/**
 * The list commands of CONTRACT §8.4–8.5 as a person runs them: `diff` and `common` with their
 * exit codes (diff(1)'s, grep's) and `merge -x` with its stderr lines; `--json` and `--server`
 * answers equal to the server's. `split`, `alloc` and `range` have their own files.
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-lists-");
const server = serverPerFile();

const A = () => file("a.txt", "# yesterday\n10.0.0.0/24\n");
const B = () => file("b.txt", "10.0.0.128/25   # still listed\n\n192.0.2.1\n");

describe("diff", () => {
  test("the contract's example: -10.0.0.0/25 and +192.0.2.1/32, exit 1", async () => {
    expect(await nettools(["diff", A(), B()])).toEqual({
      code: 1,
      stdout: "-10.0.0.0/25\n+192.0.2.1/32\n",
      stderr: "",
    });
  });

  test("lines in address order, IPv4 first, - and + interleaved; -q prints nothing", async () => {
    const a = file("a2.txt", "2001:db8::/32\n10.0.0.0/8\n203.0.113.0/24\n");
    const b = file("b2.txt", "10.0.0.0/9\n192.0.2.0/24\n2001:db8::/33\n::ffff:10.0.0.1\n");
    const ran = await nettools(["diff", a, b]);
    expect(ran.stdout).toBe(
      "-10.128.0.0/9\n+192.0.2.0/24\n-203.0.113.0/24\n+::ffff:10.0.0.1/128\n-2001:db8:8000::/33\n",
    );
    expect(ran.code).toBe(1);
    expect(await nettools(["diff", "-q", a, b])).toEqual({ code: 1, stdout: "", stderr: "" });
  });

  test("equal lists, however written, print nothing: exit 0", async () => {
    const halves = file("halves.txt", "10.0.0.0/25\n10.0.0.128/25\n");
    expect(await nettools(["diff", halves, "-"], "10.0.0.0/24\n")).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect((await nettools(["diff", "-q", halves, halves])).code).toBe(0);
  });

  test("--json is the server's cidr-compare answer, locally and with --server; the exit code stays", async () => {
    const body = { a: ["10.0.0.0/24"], b: ["10.0.0.128/25", "192.0.2.1"] };
    const expected = `${await postForText(server.url, "/v1/cidr-compare", body)}\n`;
    expect(await nettools(["diff", "--json", A(), B()])).toEqual({ code: 1, stdout: expected, stderr: "" });
    expect(await nettools(["diff", "--json", "--server", server.url, A(), B()])).toEqual({
      code: 1,
      stdout: expected,
      stderr: "",
    });
  });

  test("invalid entries are FILE:LINE, exit 2; usage mistakes are exit 2", async () => {
    const bad = await nettools(["diff", A(), file("bad.txt", "10.0.0.1\n\n10.0.0.256\n")]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('bad.txt:3: "10.0.0.256" is not a valid IPv4 address');
    expect((await nettools(["diff", A()])).code).toBe(2);
    expect((await nettools(["diff", "-", "-"], "10.0.0.1\n")).stderr).toContain("only once");
    const format = await nettools(["diff", "--format", "json", A(), B()]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format does not apply to diff");
    expect((await nettools(["diff", A(), "missing.txt"])).code).toBe(2);
  });
});

describe("common", () => {
  test("the contract's example: 10.0.0.128/25, exit 0; no overlap prints nothing, exit 1", async () => {
    expect(await nettools(["common", A(), B()])).toEqual({ code: 0, stdout: "10.0.0.128/25\n", stderr: "" });
    const apart = file("apart.txt", "8.8.8.8\n2001:db8::/32\n");
    expect(await nettools(["common", A(), apart])).toEqual({ code: 1, stdout: "", stderr: "" });
  });

  test("an empty intersection in another format still prints its empty form, exit 1", async () => {
    const apart = file("apart2.txt", "8.8.8.8\n");
    expect(await nettools(["common", "--format", "json", A(), apart])).toEqual({
      code: 1,
      stdout: "[]\n",
      stderr: "",
    });
    const nft = await nettools(["common", "--format", "nft", A(), apart]);
    expect(nft.code).toBe(1);
    expect(nft.stdout).toContain(
      "flush set inet nettools nettools_v4\nflush set inet nettools nettools_v6\n",
    );
    expect(nft.stdout).not.toContain("add element");
  });

  test("three lists and stdin: what all of them hold", async () => {
    const c = file("c.txt", "10.0.0.192/26\n192.0.2.0/24\n");
    expect(await nettools(["common", A(), B(), c])).toEqual({
      code: 0,
      stdout: "10.0.0.192/26\n",
      stderr: "",
    });
    expect((await nettools(["common", A(), "-", c], "10.0.0.0/8\n")).stdout).toBe("10.0.0.192/26\n");
  });

  test("every bad line of every list is reported before anything is printed", async () => {
    const bad1 = file("bad1.txt", "10.0.0.1/33\n");
    const bad3 = file("bad3.txt", "10.0.0.0/8\nfe80::1%eth0\n");
    const ran = await nettools(["common", bad1, B(), bad3]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain("bad1.txt:1:");
    expect(ran.stderr).toContain("bad3.txt:2:");
  });

  test("--json and --server take two lists: the server's answer", async () => {
    const body = { a: ["10.0.0.0/24"], b: ["10.0.0.128/25", "192.0.2.1"] };
    const expected = `${await postForText(server.url, "/v1/cidr-compare", body)}\n`;
    expect((await nettools(["common", "--json", A(), B()])).stdout).toBe(expected);
    expect(await nettools(["common", "--server", server.url, A(), B()])).toEqual({
      code: 0,
      stdout: "10.0.0.128/25\n",
      stderr: "",
    });
    expect((await nettools(["common", "--json", A(), B(), A()])).code).toBe(2);
    expect((await nettools(["common", "--server", server.url, A(), B(), A()])).code).toBe(2);
  });
});

describe("merge -x / --exclude-reserved", () => {
  test("stdout is the remaining list; each entry dropped or cut is one stderr line (CONTRACT §12); exit 0", async () => {
    const ran = await nettools(["merge", "-x", "10.0.0.0/7", "192.0.0.8/30", "2001:db8::1", "8.8.8.8"]);
    expect(ran).toEqual({
      code: 0,
      stdout: "8.8.8.8/32\n11.0.0.0/8\n192.0.0.9/32\n192.0.0.10/32\n",
      stderr:
        "cut 10.0.0.0/7: 10.0.0.0/8 Private-Use (RFC 1918) removed\n" +
        "cut 192.0.0.8/30: 192.0.0.0/24 IETF Protocol Assignments (RFC 6890) removed\n" +
        "excluded 2001:db8::1: 2001:db8::/32 Documentation (RFC 3849)\n",
    });
    expect((await nettools(["merge", "--exclude-reserved", "10.0.0.0/7"])).stdout).toBe("11.0.0.0/8\n");
  });

  test("without -x the answer is today's; --json with -x is the server's excludeSpecial answer", async () => {
    expect(await nettools(["merge", "10.0.0.0/7"])).toEqual({ code: 0, stdout: "10.0.0.0/7\n", stderr: "" });
    const body = { inputs: ["10.0.0.0/7", "::1"], excludeSpecial: true };
    const expected = `${await postForText(server.url, "/v1/cidr-merge", body)}\n`;
    expect(await nettools(["merge", "-x", "--json", "10.0.0.0/7", "::1"])).toEqual({
      code: 0,
      stdout: expected,
      stderr: "",
    });
    const remote = await nettools(["merge", "-x", "--server", server.url, "10.0.0.0/7", "::1"]);
    expect(remote.stdout).toBe("11.0.0.0/8\n");
    expect(remote.stderr).toBe(
      "cut 10.0.0.0/7: 10.0.0.0/8 Private-Use (RFC 1918) removed\nexcluded ::1: ::1/128 Loopback Address (RFC 4291)\n",
    );
  });

  test("-4 keeps one family on both streams", async () => {
    const ran = await nettools(["merge", "-x", "-4", "10.0.0.0/7", "::1", "2a00::/16"]);
    expect(ran).toEqual({
      code: 0,
      stdout: "11.0.0.0/8\n",
      stderr: "cut 10.0.0.0/7: 10.0.0.0/8 Private-Use (RFC 1918) removed\n",
    });
  });

  test("one line per entry, not per piece: 0.0.0.0/8 is one line; file entries say FILE:LINE", async () => {
    const feed = file("special.txt", "0.0.0.0/8\n8.8.8.0/24\n0.0.0.0/0\n");
    const ran = await nettools(["merge", "-x", "-f", feed]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe(
      'special.txt:1: excluded 0.0.0.0/8: 0.0.0.0/8 "This network" (RFC 791)\n' +
        "special.txt:3: cut 0.0.0.0/0: 240.0.0.0/4 Reserved (RFC 1112) and 17 more special blocks removed\n",
    );
  });
});
