/**
 * Tripwire: what Bun's HTTP/1.1 parser does before any handler runs (docs/reliability.md, "Before
 * our code runs"). These are Bun's defects, not wanted behaviour; the test pins them so that the
 * Bun upgrade that changes them fails here, loudly. When it does: re-run
 * `bun scripts/bun-parser-repro.ts`, update the section in docs/reliability.md (and drop the
 * upstream report draft if it was fixed), then update the expectations below.
 */
import { describe, expect, test } from "bun:test";
import { CASES, reproduce } from "../../scripts/bun-parser-repro.ts";

describe(`Bun ${Bun.version}'s parser, before any handler runs (tripwire)`, () => {
  test("methods that are not upper-case known tokens get no response; a chunked trailer loses the next pipelined request; bare LF and a NUL in the path get 505; an answer on a later turn is lost when a request is pipelined behind it", async () => {
    const results = await reproduce();
    expect(results.map((result) => result.name)).toEqual(CASES.map((c) => c.name));
    expect(results.map(({ name, statuses, ending, seen }) => ({ name, statuses, ending, seen }))).toEqual([
      // The controls: what a correct parser does.
      { name: "GET (control)", statuses: [200], ending: "open", seen: ["GET /a"] },
      // RFC 9110 §9.1: methods are case-sensitive; these deserve a 400/405/501, not a silent close.
      { name: "lower-case get", statuses: [], ending: "closed", seen: [] },
      { name: "mixed-case Get", statuses: [], ending: "closed", seen: [] },
      { name: "unknown method FOO", statuses: [], ending: "closed", seen: [] },
      {
        name: "chunked body without trailer, then a pipelined GET (control)",
        statuses: [200, 200],
        ending: "open",
        seen: ["POST /a", "GET /b"],
      },
      // RFC 9112 §7.1.2: the trailer belongs to the first request. Bun answers the first, then reads
      // the trailer line as a new request (400) and closes: the pipelined GET is never seen.
      {
        name: "chunked body with a trailer, then a pipelined GET",
        statuses: [200, 400],
        ending: "closed",
        seen: ["POST /a"],
      },
      // RFC 9112 §2.2 (bare LF: accept it or 400) and §3.2 (a NUL is no request-target character:
      // 400): Bun answers 505 HTTP Version Not Supported, without our envelope or headers, and
      // closes. docs/upstream/bun.md holds the report; docs/reliability.md says what clients see.
      { name: "bare LF line ends", statuses: [505], ending: "closed", seen: [] },
      { name: "NUL in the path", statuses: [505], ending: "closed", seen: [] },
      {
        name: "GET answered on a later turn (control)",
        statuses: [200],
        ending: "open",
        seen: ["GET /later"],
      },
      // RFC 9112 §9.3.2: pipelined requests are answered in order. Bun parses the second request
      // while the first answer is pending and closes the connection: neither answer is sent. Why
      // the server's checks end in the turn their body arrived in (ADR 68) and ADR 66's wait is
      // off. When this fails, Bun has changed: see ADR 66 ("Status") before anything else.
      {
        name: "GET answered on a later turn, then a pipelined GET",
        statuses: [],
        ending: "closed",
        seen: ["GET /later"],
      },
    ]);
  }, 30_000);
});
