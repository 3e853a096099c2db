/**
 * `--cloud` for `info` and `split` (CONTRACT §8.9, cloud-reserved addresses) as a person runs it,
 * through the real process: the reserved addresses and what is left, as lines and as JSON; sizes
 * outside the provider's, IPv6 and unknown providers as exit 2 naming the bound; `split --cloud
 * --json` as the server's answer plus `cloud`.
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools } = scratchRunner("nettools-cloud-");
const server = serverPerFile();

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
