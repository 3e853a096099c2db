/**
 * CONTRACT §9.1, the instant of evaluation `at`: the RFC 3339 reader (a table, and a property
 * against an obvious model built from the calendar fields), and both certificate use cases judged
 * at `at` instead of their clock, with every `at` refusal an INVALID_INPUT issue at ["at"].
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildCertificateChain } from "../../src/domain/certificates/chain.ts";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import {
  clockAt,
  EARLIEST_INSTANT,
  INSTANT_MESSAGE,
  LATEST_INSTANT,
  readInstant,
} from "../../src/domain/certificates/instant.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const iso = (text: string) => new Date(text).toISOString();
const read = (text: string) => {
  const reading = readInstant(text);
  return reading.ok ? reading.instant.toISOString() : null;
};

describe("readInstant (CONTRACT §9.1)", () => {
  test("accepted forms: Z, z, t, offsets, fractions dropped, the range's two ends", () => {
    const cases: [string, string][] = [
      ["2026-03-15T12:00:00Z", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15t12:00:00z", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15T14:00:00+02:00", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15T07:30:00-04:30", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15T12:00:00-00:00", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15T12:00:00.999999999Z", "2026-03-15T12:00:00.000Z"],
      ["2026-03-15T12:00:59.5+00:00", "2026-03-15T12:00:59.000Z"],
      ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
      ["2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000Z"],
      ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
      ["1950-01-01T00:00:00Z", "1950-01-01T00:00:00.000Z"],
      ["1950-01-01T01:00:00+01:00", "1950-01-01T00:00:00.000Z"],
      ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000Z"],
      ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.000Z"],
      ["9999-12-31T22:59:59-01:00", "9999-12-31T23:59:59.000Z"],
    ];
    for (const [text, expected] of cases) expect([text, read(text)]).toEqual([text, expected]);
  });

  test("refused: other shapes, impossible calendar fields, outside 1950 … 9999", () => {
    const refused = [
      "",
      "2026-03-15",
      "2026-03-15T12:00Z",
      "2026-03-15T12:00:00",
      "2026-03-15 12:00:00Z",
      "2026-03-15T12:00:00+0200",
      "2026-03-15T12:00:00+02",
      "2026-03-15T12:00:00.Z",
      " 2026-03-15T12:00:00Z",
      "2026-03-15T12:00:00Z ",
      "+02026-03-15T12:00:00Z",
      "1773576000",
      "@1773576000",
      "2026-3-15T12:00:00Z",
      "2026-00-15T12:00:00Z",
      "2026-13-15T12:00:00Z",
      "2026-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-03-00T00:00:00Z",
      "2026-03-15T24:00:00Z",
      "2026-03-15T12:60:00Z",
      "2026-03-15T12:00:61Z",
      "2026-03-15T12:00:00+24:00",
      "2026-03-15T12:00:00+02:60",
      "1949-12-31T23:59:59Z",
      "1950-01-01T00:00:00+00:01",
      "9999-12-31T23:59:60Z",
      "9999-12-31T23:59:59-00:01",
      "0000-01-01T00:00:00Z",
      `2026-03-15T12:00:00.${"0".repeat(60)}Z`,
      "2026-03-15T12:00:00Z\n",
      "２０２６-03-15T12:00:00Z",
    ];
    for (const text of refused) {
      const reading = readInstant(text);
      expect([text, reading.ok]).toEqual([text, false]);
      if (!reading.ok) expect(reading.issue).toEqual({ message: INSTANT_MESSAGE, path: ["at"] });
    }
  });

  const pad = (value: number, width = 2) => String(value).padStart(width, "0");

  test("property: any instant in range, written with any offset and fraction, reads back to its second", () => {
    // The model: the instant's UTC fields shifted by the offset by hand, then written out.
    fc.assert(
      fc.property(
        fc.integer({ min: EARLIEST_INSTANT.getTime() / 1000, max: LATEST_INSTANT.getTime() / 1000 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
        (seconds, offsetMinutes, fraction) => {
          const local = new Date((seconds + offsetMinutes * 60) * 1000);
          const sign = offsetMinutes < 0 ? "-" : "+";
          const magnitude = Math.abs(offsetMinutes);
          const offset =
            offsetMinutes === 0 ? "Z" : `${sign}${pad(Math.floor(magnitude / 60))}:${pad(magnitude % 60)}`;
          const text = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction === undefined ? "" : `.${fraction}`}${offset}`;
          if (local.getUTCFullYear() > 9999 || local.getUTCFullYear() < 0) return; // not writable in 4 digits
          expect(read(text)).toBe(new Date(seconds * 1000).toISOString());
        },
      ),
      { numRuns: 500 },
    );
  });

  test("property: the reader agrees with Date.parse wherever both accept a Z-form text", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\dZ$/), (text) => {
        const ours = read(text);
        const parsed = Date.parse(text);
        const calendarValid =
          !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 19) === text.slice(0, 19);
        const inRange = parsed >= EARLIEST_INSTANT.getTime() && parsed <= LATEST_INSTANT.getTime();
        expect(ours).toBe(calendarValid && inRange ? iso(text) : null);
      }),
      { numRuns: 1000 },
    );
  });

  test("clockAt: a fixed clock at `at`, the given clock without it", () => {
    const clock = fixedClock("2026-01-01T00:00:00Z");
    expect(clockAt(undefined, clock)).toBe(clock);
    const at = clockAt("2030-06-01T10:00:00.7+02:00", clock);
    expect(at.now().toISOString()).toBe("2030-06-01T08:00:00.000Z");
    expect(at.now().toISOString()).toBe("2030-06-01T08:00:00.000Z");
    expect(clock.reads).toBe(0);
  });
});

const CLOCK_NOW = "2026-01-01T00:00:00Z";

function leafValid(notBefore: string, notAfter: string): CertificateData {
  return makeCertificate({ subject: "CN=www.example.com", sans: ["www.example.com"], notBefore, notAfter });
}

function deps(certificates: CertificateData[]) {
  return {
    clock: fixedClock(CLOCK_NOW),
    decoder: fakeDecoder(certificates),
    verifier: scriptedVerifier(),
    roots: fakeRootStore(),
  };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected INVALID_INPUT");
}

describe("the chain judged at `at`", () => {
  const leaf = leafValid("2027-01-01T00:00:00Z", "2027-04-01T00:00:00Z");
  const chainAt = (at?: string, expiryWarningDays?: number) =>
    buildCertificateChain(
      {
        pem: bundleOf([leaf]),
        ...(at === undefined ? {} : { at }),
        ...(expiryWarningDays === undefined ? {} : { expiryWarningDays }),
      },
      deps([leaf]),
    );
  const dated = (codes: { problems: { code: string }[] }) =>
    codes.problems
      .map((problem) => problem.code)
      .filter((code) => ["EXPIRED", "NOT_YET_VALID", "EXPIRING"].includes(code));

  test("evaluatedAt is `at` in UTC to the second; expiresInDays and the dated problems follow it", async () => {
    const now = await chainAt();
    expect(now.evaluatedAt).toBe(CLOCK_NOW);
    expect(dated(now)).toEqual(["NOT_YET_VALID"]);

    const inside = await chainAt("2027-02-01T01:00:00.9+01:00", 0);
    expect(inside.evaluatedAt).toBe("2027-02-01T00:00:00Z");
    expect(inside.certificates[0]!.expiresInDays).toBe(59);
    expect(dated(inside)).toEqual([]);

    const late = await chainAt("2027-04-01T00:00:01Z");
    expect(late.certificates[0]!.expiresInDays).toBe(-1);
    expect(dated(late)).toEqual(["EXPIRED"]);

    const lastDays = await chainAt("2027-03-30T00:00:00Z", 5);
    expect(lastDays.certificates[0]!.expiresInDays).toBe(2);
    expect(dated(lastDays)).toEqual(["EXPIRING"]);
  });

  test("a bad `at` is INVALID_INPUT at ['at'], after the other fields' issues, and the clock is not read", async () => {
    const d = deps([leaf]);
    const error = await refusal(
      buildCertificateChain(
        { pem: bundleOf([leaf]), at: "2027-02-30T00:00:00Z", expiryWarningDays: 9999 },
        d,
      ),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.map((issue) => issue.path)).toEqual([["expiryWarningDays"], ["at"]]);
    expect(d.clock.reads).toBe(0);
  });
});

describe("the bundle judged at `at`", () => {
  const leaf = leafValid("2027-01-01T00:00:00Z", "2027-04-01T00:00:00Z");
  const bundleAt = (at?: string) =>
    inspectCertificateBundle({ pem: bundleOf([leaf]), ...(at === undefined ? {} : { at }) }, deps([leaf]));
  const dated = (result: { findings: { code: string }[] }) =>
    result.findings
      .map((finding) => finding.code)
      .filter((code) => code.startsWith("CERTIFICATE_EXPIR") || code === "CERTIFICATE_NOT_YET_VALID");

  test("evaluatedAt and the expiry findings follow `at`", async () => {
    const now = await bundleAt();
    expect(now.evaluatedAt).toBe(CLOCK_NOW);
    expect(dated(now)).toEqual(["CERTIFICATE_NOT_YET_VALID"]);
    const inside = await bundleAt("2027-02-01T00:00:00Z");
    expect(inside.evaluatedAt).toBe("2027-02-01T00:00:00Z");
    expect(dated(inside)).toEqual([]);
    const late = await bundleAt("2027-04-01T00:00:01-00:00");
    expect(late.evaluatedAt).toBe("2027-04-01T00:00:01Z");
    expect(dated(late)).toContain("CERTIFICATE_EXPIRED");
  });

  test("a bad `at` is INVALID_INPUT at ['at'], after the hostname's issue", async () => {
    const error = await refusal(
      inspectCertificateBundle(
        { pem: bundleOf([leaf]), hostname: "not a name", at: "1949-12-31T23:59:59Z" },
        deps([leaf]),
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([["hostname"], ["at"]]);
    expect(error.issues[1]!.message).toBe(INSTANT_MESSAGE);
  });
});
