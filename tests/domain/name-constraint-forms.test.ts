/**
 * Name constraints over every name form (CONTRACT §9.4), the parts OpenSSL's `NAME_CONSTRAINTS_check`
 * evaluates beyond dNSName and iPAddress: directory names in OpenSSL's canonical form (the subject
 * and a SAN directoryName), the subject's emailAddress attributes, mailboxes without `@`; each
 * against a slow, obvious model where one fits; the commonName left out (ADR 0046). And the work bound (issue 29 must-show): the comparisons counted
 * per call are at most (names + 1) × subtrees, and per chain at most (bundle + members²) × names ×
 * subtrees, on a chain at the limits (16 blocks).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildCertificateChain } from "../../src/domain/certificates/chain.ts";
import type { NameConstraints, NameSubtrees, SubjectAltName } from "../../src/domain/certificates/model.ts";
import {
  emailWithin,
  type NameComparisonTally,
  violatingNameOf,
} from "../../src/domain/certificates/name-constraints.ts";
import { bundleOf, directoryNameSan, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

// ---- a small DER writer for names (the test's own, independent of the decoder) ----

const OIDS = { CN: "550403", O: "55040a", OU: "55040b", C: "550406", email: "2a864886f70d010901" } as const;
type AttributeType = keyof typeof OIDS;
/** One attribute: its type, its value's text, its string tag (UTF8String unless given). */
type Attr = [AttributeType, string, number?];

function len(n: number): string {
  if (n < 0x80) return n.toString(16).padStart(2, "0");
  const bytes = n.toString(16).padStart(n > 0xff ? 4 : 2, "0");
  return `${(0x80 + bytes.length / 2).toString(16)}${bytes}`;
}
function tlv(tag: number, hex: string): string {
  return `${tag.toString(16).padStart(2, "0")}${len(hex.length / 2)}${hex}`;
}
function valueHex(text: string, tag: number): string {
  if (tag === 0x1e) return [...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
  return Buffer.from(text, tag === 0x0c ? "utf8" : "latin1").toString("hex");
}
/** The RDNs' content (what a directoryName subtree holds): each RDN a SET of its attributes. */
function rdnsHex(rdns: Attr[][]): string {
  return rdns
    .map((rdn) =>
      tlv(
        0x31,
        rdn
          .map(([type, text, tag = 0x0c]) => tlv(0x30, tlv(0x06, OIDS[type]) + tlv(tag, valueHex(text, tag))))
          .join(""),
      ),
    )
    .join("");
}
function nameHex(rdns: Attr[][]): string {
  return tlv(0x30, rdnsHex(rdns));
}

function subtrees(partial: Partial<NameSubtrees> = {}): NameSubtrees {
  return { dns: [], ip: [], email: [], uri: [], directoryName: [], unsupported: [], ...partial };
}
function constraints(
  permitted: Partial<NameSubtrees> = {},
  excluded: Partial<NameSubtrees> = {},
): NameConstraints {
  return { permitted: subtrees(permitted), excluded: subtrees(excluded) };
}
function cert(subject: Attr[][], sans: SubjectAltName[] = []) {
  return { subjectNameKey: nameHex(subject), subject: "(subject)", sans };
}
const dirSan = (rdns: Attr[][]): SubjectAltName => ({
  type: "directoryName",
  value: "(dir)",
  nameKey: nameHex(rdns),
});

const PRINTABLE = 0x13;
const IA5 = 0x16;
const BMP = 0x1e;

describe("directory names in OpenSSL's canonical form", () => {
  test("case, white space and string type do not count; order of RDNs does; an RDN is a set", () => {
    const within = (subject: Attr[][], base: Attr[][]) =>
      violatingNameOf(cert(subject), constraints({ directoryName: [rdnsHex(base)] })) === null;
    expect(within([[["O", "Example"]], [["CN", "leaf"]]], [[["O", "Example"]]])).toBe(true);
    expect(within([[["O", "  example   CORP "]]], [[["O", "Example Corp"]]])).toBe(true);
    expect(within([[["O", "Example", PRINTABLE]]], [[["O", "example", BMP]]])).toBe(true);
    expect(within([[["O", "Exämple"]]], [[["O", "exämple"]]])).toBe(true);
    // Only ASCII letters fold (OpenSSL's ossl_tolower): Ä and ä stay different.
    expect(within([[["O", "Ä"]]], [[["O", "ä"]]])).toBe(false);
    expect(within([[["CN", "leaf"]], [["O", "Example"]]], [[["O", "Example"]]])).toBe(false);
    expect(within([[["O", "Example"]]], [[["O", "Example"]], [["OU", "Unit"]]])).toBe(false);
    expect(
      within(
        [
          [
            ["O", "Example"],
            ["OU", "Unit"],
          ],
        ],
        [
          [
            ["OU", "Unit"],
            ["O", "Example"],
          ],
        ],
      ),
    ).toBe(true);
    expect(within([[["O", "Example"]]], [])).toBe(true);
    // The same text under another attribute type is another name.
    expect(within([[["OU", "Example"]]], [[["O", "Example"]]])).toBe(false);
  });

  test("against a slow model: the base's normalised RDNs are the name's first ones (fast-check)", () => {
    const norm = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();
    const attr = fc.tuple(
      fc.constantFrom<AttributeType>("CN", "O", "OU"),
      fc.stringMatching(/^[ A-Za-z]{0,6}$/),
      fc.constantFrom(0x0c, PRINTABLE, IA5),
    );
    const rdn = fc.array(attr, { minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(
        fc.array(rdn, { minLength: 1, maxLength: 4 }),
        fc.array(rdn, { maxLength: 4 }),
        (name, base) => {
          const key = (r: Attr[]) =>
            r
              .map(([type, text]) => `${type}=${norm(text)}`)
              .sort()
              .join("+");
          const model = base.length <= name.length && base.every((r, k) => key(r) === key(name[k]!));
          const permitted =
            violatingNameOf(cert(name), constraints({ directoryName: [rdnsHex(base)] })) === null;
          const excluded =
            violatingNameOf(cert(name), constraints({}, { directoryName: [rdnsHex(base)] })) !== null;
          expect([permitted, excluded]).toEqual([model, model]);
        },
      ),
      { numRuns: 400 },
    );
  });

  test("a SAN directoryName is held to directoryName subtrees like the subject", () => {
    const subject: Attr[][] = [[["O", "Good"]], [["CN", "leaf"]]];
    const nc = constraints({ directoryName: [rdnsHex([[["O", "Good"]]])] });
    expect(violatingNameOf(cert(subject, [dirSan([[["O", "Good"]], [["CN", "x"]]])]), nc)).toBeNull();
    expect(violatingNameOf(cert(subject, [dirSan([[["O", "Other"]]])]), nc)).toMatchObject({
      form: "directoryName",
      inSubject: false,
      readable: true,
    });
    const excluded = constraints({}, { directoryName: [rdnsHex([[["O", "Bad"]]])] });
    expect(violatingNameOf(cert(subject, [dirSan([[["O", "bad"]]])]), excluded)?.form).toBe("directoryName");
    // Without directoryName subtrees a SAN of that form is free.
    expect(
      violatingNameOf(cert(subject, [dirSan([[["O", "Other"]]])]), constraints({ dns: ["x.test"] })),
    ).toBeNull();
  });
});

describe("through the chain operation", () => {
  test("a leaf's SAN directoryName outside its CA's subtrees: NAME_CONSTRAINTS_VIOLATED on [leaf, CA]", async () => {
    const root = makeCertificate({
      subject: "CN=Root",
      ca: true,
      notBefore: "2020-01-01T00:00:00Z",
      notAfter: "2040-01-01T00:00:00Z",
      nameConstraints: { permitted: { directoryName: ["O=Good"] } },
    });
    const leafWith = (dir: string) =>
      makeCertificate({
        subject: "CN=leaf,O=Good",
        issuer: "CN=Root",
        sans: ["www.example.com", directoryNameSan(dir)],
      });
    const judge = async (dir: string) => {
      const leaf = leafWith(dir);
      const result = await buildCertificateChain(
        { pem: bundleOf([leaf, root]) },
        {
          clock: fixedClock("2026-06-01T00:00:00Z"),
          decoder: fakeDecoder([leaf, root]),
          verifier: scriptedVerifier(),
          roots: fakeRootStore(),
        },
      );
      return result.problems.filter((p) => p.code === "NAME_CONSTRAINTS_VIOLATED");
    };
    expect(await judge("CN=x,O=Good")).toEqual([]);
    const [violated] = await judge("CN=x,O=Other");
    expect([violated?.certificateIndexes, violated?.observed]).toEqual([
      [0, 1],
      expect.stringContaining("the directoryName CN=x,O=Other"),
    ]);
  });
});

describe("the subject's emailAddress attributes (RFC 5280 §4.2.1.6; OpenSSL checks them always)", () => {
  const withEmail = (address: string, tag = IA5, sans: SubjectAltName[] = []) =>
    cert([[["CN", "leaf"]], [["email", address, tag]]], sans);

  test("held to rfc822Name subtrees, with or without an rfc822Name SAN", () => {
    const permitted = constraints({ email: ["example.com"] });
    expect(violatingNameOf(withEmail("a@example.com"), permitted)).toBeNull();
    expect(violatingNameOf(withEmail("a@other.test"), permitted)).toMatchObject({
      form: "email",
      value: "a@other.test",
      inSubject: true,
    });
    const beside = withEmail("a@other.test", IA5, [{ type: "email", value: "a@example.com" }]);
    expect(violatingNameOf(beside, permitted)?.value).toBe("a@other.test");
    expect(violatingNameOf(withEmail("a@other.test"), constraints({ dns: ["example.com"] }))).toBeNull();
  });

  test("one that is not an IA5String violates any nameConstraints (OpenSSL: unsupported name syntax)", () => {
    const utf8 = withEmail("a@example.com", 0x0c);
    expect(violatingNameOf(utf8, constraints({ dns: ["example.com"] }))).toMatchObject({
      form: "emailAddress",
      readable: false,
    });
    expect(violatingNameOf(withEmail("a@example.com"), constraints({ dns: ["example.com"] }))).toBeNull();
  });

  test("a mailbox without @ violates any rfc822Name subtree, excluded ones too (OpenSSL nc_email)", () => {
    const nobody: SubjectAltName = { type: "email", value: "nobody" };
    expect(
      violatingNameOf(cert([[["CN", "leaf"]]], [nobody]), constraints({}, { email: ["x.test"] }))?.form,
    ).toBe("email");
    expect(violatingNameOf(cert([[["CN", "leaf"]]], [nobody]), constraints({ dns: ["x.test"] }))).toBeNull();
  });

  test("a base with an empty local part names every mailbox at its host", () => {
    expect(emailWithin("anyone@example.com", "@example.com")).toBe(true);
    expect(emailWithin("anyone@other.test", "@example.com")).toBe(false);
  });
});

describe("the commonName is not a name form here (ADR 0046)", () => {
  test("a host-like CN outside the subtrees, without a dNSName SAN, is not read (Go, Chromium, limbo)", () => {
    const nc = constraints({ dns: ["example.com"] });
    expect(violatingNameOf(cert([[["CN", "www.other.test"]]]), nc)).toBeNull();
    expect(
      violatingNameOf(cert([[["CN", "www.other.test"]]], [{ type: "ip", value: "192.0.2.1" }]), nc),
    ).toBeNull();
  });
});

describe("bounded work (issue 29: names × subtrees, capped by the limits)", () => {
  test("one call compares at most (names + 1) × subtrees (fast-check)", () => {
    const san = fc.oneof(
      fc.constantFrom("a.example.com", "b.other.test", "x").map((value) => ({ type: "dns", value })),
      fc.constantFrom("a@example.com", "nobody").map((value) => ({ type: "email", value })),
      fc.constantFrom("https://a.example.com/", "urn:x").map((value) => ({ type: "uri", value })),
      fc.constantFrom("192.0.2.1", "2001:db8::1").map((value) => ({ type: "ip", value })),
      fc.constant(dirSan([[["O", "Example"]]])),
    );
    const side = fc.record({
      dns: fc.array(fc.constantFrom("example.com", ".example.com", "other.test"), { maxLength: 4 }),
      email: fc.array(fc.constantFrom("example.com", "a@example.com"), { maxLength: 4 }),
      uri: fc.array(fc.constantFrom(".example.com", "other.test"), { maxLength: 4 }),
      directoryName: fc.array(fc.constantFrom(rdnsHex([[["O", "Example"]]]), rdnsHex([[["O", "Other"]]])), {
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(san, { maxLength: 12 }),
        fc.array(fc.constantFrom("a@example.com", "b@other.test"), { maxLength: 3 }),
        side,
        side,
        (sans, emails, permitted, excluded) => {
          const subject: Attr[][] = [
            [["O", "Example"]],
            [["CN", "www.example.com"]],
            ...emails.map((e): Attr[] => [["email", e, IA5]]),
          ];
          const nc = constraints(permitted, excluded);
          const tally: NameComparisonTally = { comparisons: 0 };
          violatingNameOf(cert(subject, sans), nc, { tally });
          const subtreeCount = [permitted, excluded].reduce(
            (sum, s) => sum + s.dns.length + s.email.length + s.uri.length + s.directoryName.length,
            0,
          );
          const names = sans.length + emails.length;
          expect(tally.comparisons).toBeLessThanOrEqual((names + 1) * subtreeCount);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a chain at the limits: comparisons ≤ (bundle + members²) × names × subtrees, and every CA's are made", async () => {
    // 16 blocks (the API's limit): a leaf with 40 names and 15 CAs above it, each with 20 subtrees
    // that every name satisfies (so no comparison is cut short by a first violation).
    const NAMES = 40;
    const SUBTREES = 20;
    const cas = Array.from({ length: 15 }, (_, k) =>
      makeCertificate({
        subject: `CN=CA ${k}`,
        issuer: k === 14 ? "CN=CA 14" : `CN=CA ${k + 1}`,
        ca: true,
        notBefore: "2020-01-01T00:00:00Z",
        notAfter: "2040-01-01T00:00:00Z",
        nameConstraints: {
          permitted: { dns: Array.from({ length: SUBTREES }, () => "example.com") },
        },
      }),
    );
    const leaf = makeCertificate({
      subject: "CN=leaf",
      issuer: "CN=CA 0",
      sans: Array.from({ length: NAMES }, (_, k) => `n${k}.example.com`),
    });
    const certificates = [leaf, ...cas];
    const tally: NameComparisonTally = { comparisons: 0 };
    const result = await buildCertificateChain(
      { pem: bundleOf(certificates) },
      {
        clock: fixedClock("2026-06-01T00:00:00Z"),
        decoder: fakeDecoder(certificates),
        verifier: scriptedVerifier(),
        roots: fakeRootStore(),
        nameComparisons: tally,
      },
    );
    expect(result.path).toHaveLength(16);
    expect(result.problems.map((p) => p.code)).not.toContain("NAME_CONSTRAINTS_VIOLATED");
    const members = result.path.length;
    const names = NAMES + 1;
    const bound = (certificates.length + members * members) * names * SUBTREES;
    expect(tally.comparisons).toBeLessThanOrEqual(bound);
    // Each CA's subtrees met each name below it at least once: the rule did its work, no less.
    expect(tally.comparisons).toBeGreaterThanOrEqual(15 * NAMES);
  });
});
