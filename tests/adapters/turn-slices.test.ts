/**
 * TurnSlices (ADR 68): synchronous work shared out over the event loop's turns, at most a slice a
 * turn, in the order it was asked for, with work that has just run going to the back of the line.
 * The clock and the turns are the test's: each piece of work moves the clock by its cost, and a
 * turn ends when the test says.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { TurnSlices } from "../../src/adapters/crypto/turn-slices.ts";

/** A TurnSlices on a clock that only work moves, and whose turns end when `endTurn` is called. */
function fakeTurns(sliceMs: number) {
  let clock = 0;
  let turn = 0;
  const turnEnds: (() => void)[] = [];
  const slices = new TurnSlices({
    sliceMs,
    now: () => clock,
    nextTurn: (callback) => turnEnds.push(callback),
  });
  /** Work of `ms` that records the turn it ran in. */
  const piece = (name: string, ms: number, ran: { name: string; turn: number }[]) => () => {
    clock += ms;
    ran.push({ name, turn });
    return name;
  };
  const endTurn = async () => {
    turn++;
    for (const callback of turnEnds.splice(0)) callback();
    await Bun.sleep(0); // the continuations of what ran
  };
  return { slices, piece, endTurn, turnEndsPending: () => turnEnds.length };
}

describe("TurnSlices", () => {
  test("work asked for while the turn has room runs at once: its answer is ready before any later turn", async () => {
    const slices = new TurnSlices({ sliceMs: 10 });
    for (let round = 0; round < 10; round++) {
      let laterTurnRan = false;
      setImmediate(() => {
        laterTurnRan = true;
      });
      expect(await slices.run(() => round * 2)).toBe(round * 2);
      expect(laterTurnRan).toBe(false);
    }
  });

  test("once the slice is spent, work waits for the next turn, which starts a new account", async () => {
    const { slices, piece, endTurn } = fakeTurns(10);
    const ran: { name: string; turn: number }[] = [];
    await slices.run(piece("a", 4, ran));
    await slices.run(piece("b", 4, ran));
    await slices.run(piece("c", 4, ran)); // 8 ms spent: still room, so it runs (and ends at 12)
    const d = slices.run(piece("d", 4, ran));
    expect(slices.waiting).toBe(1);
    await Bun.sleep(1);
    expect(ran.map((entry) => entry.name)).toEqual(["a", "b", "c"]);
    await endTurn();
    expect(await d).toBe("d");
    expect(ran).toEqual([
      { name: "a", turn: 0 },
      { name: "b", turn: 0 },
      { name: "c", turn: 0 },
      { name: "d", turn: 1 },
    ]);
  });

  test("a long job does not keep the slices: work that waited runs before the job's next piece", async () => {
    const { slices, piece, endTurn } = fakeTurns(10);
    const ran: { name: string; turn: number }[] = [];
    // A job of 20 pieces of 4 ms, each asked for when the last is answered (a path search).
    const job = (async () => {
      for (let k = 0; k < 20; k++) await slices.run(piece(`long${k}`, 4, ran));
    })();
    await Bun.sleep(0);
    // An ordinary request's one check, asked for once the long job has spent the first slice.
    const ordinary = slices.run(piece("ordinary", 1, ran));
    await endTurn();
    await ordinary;
    const ordinaryTurn = ran.find((entry) => entry.name === "ordinary")?.turn;
    expect(ordinaryTurn).toBe(1);
    // In its turn it ran right after the one piece of the job that was already waiting.
    const turnOne = ran.filter((entry) => entry.turn === 1).map((entry) => entry.name);
    expect(turnOne.slice(0, 2)).toEqual(["long3", "ordinary"]);
    for (let turn = 0; turn < 20 && ran.length < 21; turn++) await endTurn();
    await job;
    expect(ran.length).toBe(21);
  });

  test("work that throws rejects its own promise and the line goes on", async () => {
    const { slices, piece, endTurn } = fakeTurns(1);
    const ran: { name: string; turn: number }[] = [];
    await slices.run(piece("first", 2, ran));
    const failing = slices
      .run((): string => {
        throw new Error("boom");
      })
      .catch((error: Error) => `rejected: ${error.message}`);
    const after = slices.run(piece("after", 0, ran));
    await endTurn();
    expect(await failing).toBe("rejected: boom");
    expect(await after).toBe("after");
    expect(slices.waiting).toBe(0);
  });

  test("property: each turn starts work only while its slice has room, waiting work runs in arrival order, and all of it is answered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(
          fc.record({ ms: fc.integer({ min: 0, max: 9 }), arrivesInTurn: fc.integer({ min: 0, max: 4 }) }),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        async (sliceMs, pieces) => {
          const { slices, piece, endTurn } = fakeTurns(sliceMs);
          const ran: { name: string; turn: number }[] = [];
          const answers: Promise<string>[] = [];
          const costs = new Map<string, number>();
          const queuedOrder: string[] = [];
          for (
            let turn = 0;
            turn < 60 && (answers.length < pieces.length || ran.length < pieces.length);
            turn++
          ) {
            pieces.forEach(({ ms, arrivesInTurn }, index) => {
              if (arrivesInTurn !== turn) return;
              const name = `p${index}`;
              costs.set(name, ms);
              const waitsBefore = slices.waiting;
              answers.push(slices.run(piece(name, ms, ran)));
              if (slices.waiting > waitsBefore) queuedOrder.push(name);
            });
            await endTurn();
          }
          expect((await Promise.all(answers)).sort()).toEqual(pieces.map((_, index) => `p${index}`).sort());
          // Per turn: every piece but the last started with less than the slice spent.
          const turns = new Map<number, string[]>();
          for (const entry of ran) turns.set(entry.turn, [...(turns.get(entry.turn) ?? []), entry.name]);
          for (const names of turns.values()) {
            let spent = 0;
            for (const name of names) {
              expect(spent).toBeLessThan(sliceMs);
              spent += costs.get(name) ?? 0;
            }
          }
          // Waiting work ran in the order it joined the line.
          const ranOrder = ran.map((entry) => entry.name).filter((name) => queuedOrder.includes(name));
          expect(ranOrder).toEqual(queuedOrder);
        },
      ),
      { numRuns: 150 },
    );
  });
});
