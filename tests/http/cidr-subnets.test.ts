/**
 * cidr-subnets over HTTP (CONTRACT §8.9) through app.handle (the shared rules of §1 for its row
 * are in cidr-lists.test.ts): Terraform's example, INSUFFICIENT_SPACE as 400 with the argument's
 * issue, and the bounds on `newbits` in Terraform's words, issues with `path` only.
 */
import { describe, expect, test } from "bun:test";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const { app } = testApp();

describe("cidr-subnets", () => {
  test("Terraform's example", async () => {
    expect(
      await jsonOf(
        await call(app, "POST", "/v1/cidr-subnets", {
          json: { prefix: "10.1.0.0/16", newbits: [4, 4, 8, 4] },
        }),
      ),
    ).toEqual({
      prefix: "10.1.0.0/16",
      cidrs: ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
    });
  });

  test("no room: 400 INSUFFICIENT_SPACE with the argument's issue", async () => {
    const response = await call(app, "POST", "/v1/cidr-subnets", {
      json: { prefix: "10.0.0.0/24", newbits: [1, 1, 1] },
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("INSUFFICIENT_SPACE");
    expect(error.message).toBe(
      "newbits argument 3: not enough remaining address space for a subnet with a prefix of 25 bits after 10.0.0.128/25.",
    );
    expect(error.issues).toEqual([{ message: error.message.slice(0, -1), path: ["newbits", 2] }]);
  });

  test("newbits outside 1–32 or past the family's width: issues at [\"newbits\", i], in Terraform's words", async () => {
    const error = await errorOf(
      await call(app, "POST", "/v1/cidr-subnets", {
        json: { prefix: "10.0.0.0/8", newbits: [8, 0, 33, 25] },
      }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      { message: "newbits argument 2 (0): must extend prefix by at least one bit", path: ["newbits", 1] },
      {
        message: "newbits argument 3 (33): may not extend prefix by more than 32 bits",
        path: ["newbits", 2],
      },
      {
        message:
          "newbits argument 4 (25): would extend prefix to 33 bits, which is too long for an IPv4 address",
        path: ["newbits", 3],
      },
    ]);
    const notInteger = await errorOf(
      await call(app, "POST", "/v1/cidr-subnets", { json: { prefix: "10.0.0.0/8", newbits: [1.5] } }),
    );
    expect(notInteger.issues?.map((issue) => issue.path)).toEqual([["newbits", 0]]);
  });

  test('more than 1000 newbits: 400 at ["newbits"]', async () => {
    const response = await call(app, "POST", "/v1/cidr-subnets", {
      json: { prefix: "::/0", newbits: Array.from({ length: 1001 }, () => 32) },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).issues?.[0]?.path).toEqual(["newbits"]);
  });
});
