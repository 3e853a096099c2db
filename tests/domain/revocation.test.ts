/**
 * The CRL rules of the domain (CONTRACT §10.2, §9.1): `at` parsed as RFC 3339 against a slow
 * obvious model (fast-check), and `REVOKED` / `CRL_STALE` for path members from a list, with the
 * list faked in the shape the strict reader gives (entries walked on demand).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  answerRevocationList,
  parseInstant,
  revocationProblems,
} from "../../src/domain/certificates/revocation.ts";
import type {
  RevocationListData,
  RevokedEntry,
} from "../../src/domain/certificates/revocation-list-model.ts";
import { makeCertificate } from "../fakes/certificates.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

/** A list in the reader's shape, from entries held in an array. */
function fakeList(
  issuerNameKey: string,
  entries: RevokedEntry[],
  nextUpdate: Date | null,
): RevocationListData {
  return {
    der: new Uint8Array(),
    tbs: new Uint8Array(),
    signatureParameters: null,
    signatureValue: null,
    signatureAlgorithm: "ecdsa-with-SHA256",
    signatureAlgorithmOid: "1.2.840.10045.4.3.2",
    signatureAlgorithmsMatch: true,
    version: 2,
    issuer: "CN=Issuing CA",
    issuerNameKey,
    thisUpdate: new Date("2026-11-01T00:00:00Z"),
    nextUpdate,
    crlNumber: "7",
    authorityKeyIdentifier: null,
    entryCount: entries.length,
    find: (serials) =>
      new Map(entries.filter((e) => serials.includes(e.serialNumber)).map((e) => [e.serialNumber, e])),
    entries: () => entries,
  };
}

const root = makeCertificate({ subject: "CN=Issuing CA", ca: true });
const leaf = makeCertificate({ subject: "CN=leaf.example", issuer: "CN=Issuing CA", serialNumber: "1001" });
const other = makeCertificate({ subject: "CN=other.example", issuer: "CN=Other CA", serialNumber: "1001" });
const revokedLeaf: RevokedEntry = {
  serialNumber: "1001",
  revocationDate: new Date("2026-11-15T10:00:00Z"),
  reason: "keyCompromise",
  invalidityDate: null,
};

describe("at: RFC 3339 with Z or an offset, 1950 … 9999, fractions dropped (CONTRACT §9.1)", () => {
  /** The slow model: the calendar by hand, the offset applied, the range checked. */
  function model(
    y: number,
    mo: number,
    d: number,
    h: number,
    mi: number,
    s: number,
    offset: number,
  ): number | null {
    const days = [
      31,
      y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
      31,
      30,
      31,
      30,
      31,
      31,
      30,
      31,
      30,
      31,
    ];
    if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1]! || h > 23 || mi > 59 || s > 60) return null; // :60, a leap second, is the second after (ADR 0034)
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi, s, 0);
    const t = date.getTime() - offset * 60_000;
    return t < Date.UTC(1950, 0, 1) || t > Date.UTC(9999, 11, 31, 23, 59, 59) ? null : t;
  }
  const two = (n: number) => String(n).padStart(2, "0");

  test("agrees with the model on generated date-times, offsets and fractions", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        fc.option(fc.stringMatching(/^[0-9]{1,9}$/)),
        (y, mo, d, h, mi, s, offset, fraction) => {
          const zone =
            offset === 0
              ? "Z"
              : `${offset < 0 ? "-" : "+"}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
          const text = `${String(y).padStart(4, "0")}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${fraction === null ? "" : `.${fraction}`}${zone}`;
          expect(parseInstant(text)?.getTime() ?? null).toBe(model(y, mo, d, h, mi, s, offset));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("refuses what is not RFC 3339 with a zone", () => {
    for (const text of [
      "2026-01-01",
      "2026-01-01T00:00:00",
      "2026-01-01 00:00:00Z",
      "@1700000000",
      "2026-01-01T00:00:00+0100",
      "",
    ]) {
      expect({ text, at: parseInstant(text) }).toEqual({ text, at: null });
    }
  });
});

describe("REVOKED and CRL_STALE (CONTRACT §10.2)", () => {
  const list = fakeList(root.subjectNameKey, [revokedLeaf], new Date("2026-12-01T00:00:00Z"));

  test("a listed member is REVOKED with serial, date and reason; the root and other issuers are not looked up", () => {
    const problems = revocationProblems(
      [
        { index: 0, certificate: leaf },
        { index: 1, certificate: root },
        { index: 2, certificate: other },
      ],
      [{ list, name: "ca.crl" }],
      new Date("2026-11-20T00:00:00Z"),
    );
    expect(problems.map((p) => [p.code, p.severity, p.certificateIndexes, p.clients.length])).toEqual([
      ["REVOKED", "error", [0], 5],
    ]);
    expect(problems[0]!.observed).toContain("serial 1001");
    expect(problems[0]!.observed).toContain("2026-11-15T10:00:00Z");
    expect(problems[0]!.observed).toContain("keyCompromise");
  });

  test("after nextUpdate the list is also CRL_STALE, a warning on the members it covers", () => {
    const problems = revocationProblems(
      [{ index: 0, certificate: leaf }],
      [{ list, name: "ca.crl" }],
      new Date("2026-12-01T00:00:01Z"),
    );
    expect(problems.map((p) => [p.code, p.severity, p.certificateIndexes])).toEqual([
      ["REVOKED", "error", [0]],
      ["CRL_STALE", "warning", [0]],
    ]);
    // At nextUpdate itself the list is still current.
    expect(
      revocationProblems(
        [{ index: 0, certificate: leaf }],
        [{ list, name: "ca.crl" }],
        new Date("2026-12-01T00:00:00Z"),
      ).map((p) => p.code),
    ).toEqual(["REVOKED"]);
  });

  test("the API's lookups: revoked, another issuer (never revoked), the signature through the verifier", async () => {
    const answer = await answerRevocationList(
      list,
      root,
      [leaf, other],
      new Date("2026-11-20T00:00:00Z"),
      scriptedVerifier(() => ({ outcome: "verified" })),
    );
    expect(answer.signature).toBe("verified");
    expect(answer.certificates[0]).toEqual({
      index: 0,
      serialNumber: "1001",
      revoked: true,
      revocationDate: "2026-11-15T10:00:00Z",
      reason: "keyCompromise",
    });
    expect(answer.certificates[1]).toMatchObject({ index: 1, revoked: false, revocationDate: null });
    const unsupported = await answerRevocationList(
      list,
      root,
      [],
      new Date(),
      scriptedVerifier(() => ({ outcome: "unsupported" })),
    );
    expect(unsupported.signature).toBe("failed");
  });
});
