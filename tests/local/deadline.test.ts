/**
 * The CLI's work budget (src/local/deadline.ts, CONTRACT §7.3) with a fake clock and a fake memory
 * gauge: the verifier it wraps, the budget the path search asks, and the one line.
 */
import { describe, expect, test } from "bun:test";
import { WorkAbandoned } from "../../src/domain/errors.ts";
import type { SignatureCheck, SignatureVerifier } from "../../src/domain/ports.ts";
import { CONCURRENT_CHECKS, Deadline, MEMORY_CEILING_BYTES } from "../../src/local/deadline.ts";
import { makeCertificate } from "../fakes/certificates.ts";

/** A clock the test moves, and a memory gauge it sets. */
function gauges() {
  const state = { now: 0, memory: 100 * 1024 * 1024 };
  return { state, now: () => state.now, memory: () => state.memory };
}

/** A verifier whose checks end when the test says, recording how many ran at once. */
function heldVerifier() {
  const pending: ((check: SignatureCheck) => void)[] = [];
  let running = 0;
  let most = 0;
  let started = 0;
  const verifier: SignatureVerifier = {
    verify: () =>
      new Promise((resolve) => {
        started++;
        running++;
        most = Math.max(most, running);
        pending.push((check) => {
          running--;
          resolve(check);
        });
      }),
  };
  return {
    verifier,
    started: () => started,
    most: () => most,
    finishOne: () => pending.shift()?.({ outcome: "verified" }),
  };
}

const child = makeCertificate({ subject: "CN=child", issuer: "CN=ca" });
const issuer = makeCertificate({ subject: "CN=ca", ca: true });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("Deadline.verifier", () => {
  test(`at most ${CONCURRENT_CHECKS} checks at once; every check is answered while the budget lasts`, async () => {
    const { now, memory } = gauges();
    const deadline = new Deadline(10, memory, now);
    const held = heldVerifier();
    const wrapped = deadline.verifier(held.verifier);
    const answers = Array.from({ length: 50 }, () => wrapped.verify(child, issuer));
    expect(held.started()).toBe(CONCURRENT_CHECKS);
    for (let k = 0; k < 50; k++) {
      held.finishOne();
      await tick();
    }
    expect((await Promise.all(answers)).every((check) => check.outcome === "verified")).toBe(true);
    expect(held.most()).toBe(CONCURRENT_CHECKS);
  });

  test("once the time is up no check starts, and the line says how far the checks got", async () => {
    const { state, now, memory } = gauges();
    const deadline = new Deadline(2, memory, now);
    const held = heldVerifier();
    const wrapped = deadline.verifier(held.verifier);
    for (let k = 0; k < 20; k++) void wrapped.verify(child, issuer);
    held.finishOne();
    await tick();
    held.finishOne();
    await tick();
    state.now = 2000;
    held.finishOne();
    await tick();
    expect(held.started()).toBe(CONCURRENT_CHECKS + 2);
    expect(deadline.exhausted()).toBe(true);
    expect(deadline.stoppedLine()).toBe(
      "stopped at the time limit (2 s; --timeout SECONDS sets it) after 3 of 20 signature checks; no verdict",
    );
  });

  test("memory past the ceiling stops it too", () => {
    const { state, now, memory } = gauges();
    const deadline = new Deadline(10, memory, now);
    expect(deadline.exhausted()).toBe(false);
    state.memory = MEMORY_CEILING_BYTES + 1;
    expect(deadline.exhausted()).toBe(true);
    expect(deadline.stoppedLine()).toStartWith(
      `stopped at the memory limit (${MEMORY_CEILING_BYTES / 1024 / 1024} MB)`,
    );
    // The first reason stays.
    state.now = 60_000;
    expect(deadline.stoppedLine()).toContain("memory limit");
  });
});

describe("Deadline.run", () => {
  test("the work's value when it ends in time", async () => {
    const deadline = new Deadline(5, () => 0);
    expect(await deadline.run(async () => 42)).toEqual({ done: true, value: 42 });
  });

  test("the line when the timer fires first, however long the work would go on", async () => {
    const deadline = new Deadline(0.05, () => 0);
    deadline.doing({ doing: "connecting to example.com:443" });
    const started = performance.now();
    const outcome = await deadline.run(() => new Promise<never>(() => {}));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(outcome).toEqual({
      done: false,
      line: "stopped at the time limit (0.05 s; --timeout SECONDS sets it) while connecting to example.com:443; no verdict",
    });
    expect(deadline.signal.aborted).toBe(true);
  });

  test("the path search's WorkAbandoned is the same line, with the stage after the checks", async () => {
    const { state, now, memory } = gauges();
    const deadline = new Deadline(1, memory, now);
    deadline.doing({ afterChecks: "while searching for the best path" });
    const wrapped = deadline.verifier({ verify: async () => ({ outcome: "verified" }) });
    const outcome = await deadline.run(async () => {
      await wrapped.verify(child, issuer);
      state.memory = MEMORY_CEILING_BYTES * 2;
      if (deadline.exhausted()) throw new WorkAbandoned();
      return "never";
    });
    expect(outcome).toEqual({
      done: false,
      line: `stopped at the memory limit (${MEMORY_CEILING_BYTES / 1024 / 1024} MB) after the only signature check, while searching for the best path; no verdict`,
    });
  });

  test("any other failure is thrown as is", async () => {
    const deadline = new Deadline(5, () => 0);
    await expect(deadline.run(async () => Promise.reject(new TypeError("boom")))).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});
