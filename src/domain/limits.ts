/**
 * Every limit of the domain in one place, with the reason for each: what a request may hold and
 * what an answer may grow to. Values come from the API specification v0.5.0 (part 8) and
 * CONTRACT.md; the body size the contract sets for every POST is here too (MAX_BODY_BYTES). The
 * other layers keep theirs beside the code they bound: the serving edge's default deadline in
 * src/adapters/http/limits.ts, its admission queue (DEFAULT_ADMISSION) in
 * src/adapters/http/admission.ts, the JSON nesting cap in src/adapters/http/json-body.ts and the
 * rate limiter's window and table size in src/adapters/http/rate-limit.ts; the DER reader's work
 * bounds in src/domain/der.ts.
 */

/** Largest request body accepted on any POST endpoint, in bytes (spec §8). */
export const MAX_BODY_BYTES = 65_536;
/** Shortest and longest address entry, in characters, measured on the raw string (spec §2.1). */
export const MIN_ENTRY_LENGTH = 1;
export const MAX_ENTRY_LENGTH = 64;
/** Entries in cidr-cover `inputs` (spec §2.2). */
export const MAX_COVER_INPUTS = 1000;
/** Entries across cidr-subtract `include` and `exclude` together (spec §2.4). */
export const MAX_SUBTRACT_ENTRIES = 1000;
/** Largest cidr-subtract result; a larger one fails with RESULT_TOO_LARGE and no partial list (spec §4.2). */
export const MAX_RESULT_CIDRS = 10_000;
/**
 * Address entries across every list of one request to the CIDR additions (cidr-merge, -split,
 * -contains, -allocate; CONTRACT §7): one list alone or two together.
 */
export const MAX_LIST_ENTRIES = 1000;
/** Most blocks one cidr-allocate request may ask for (`count`, CONTRACT §7.4). */
export const MAX_ALLOCATE_COUNT = 1000;
/** Largest range-to-cidrs result: an IPv6 range never needs more than 2 × 127 prefixes (spec §2.7). */
export const MAX_RANGE_CIDRS = 254;
/** Longest `pem` field, in UTF-16 characters and in UTF-8 bytes (spec §2.8). */
export const MAX_PEM_LENGTH = 49_152;
/** Most CERTIFICATE blocks in one bundle (spec §2.8). */
export const MAX_CERTIFICATES = 16;
/** Most candidate-issuer relationships: 16 certificates × 15 others (spec §2.9). */
export const MAX_RELATIONSHIPS = 240;
/** Longest `hostname` field (spec §2.8). */
export const MAX_HOSTNAME_LENGTH = 255;
/** Most issues reported in one error envelope; its message then says that more were omitted (CONTRACT §1.1). */
export const MAX_ISSUES = 100;
/**
 * Most problems any check looks for: one more than an envelope lists, so that the envelope can say
 * that more exist without anyone counting them all. Rejecting a 64 KiB body of wrong values then
 * costs no more than accepting a valid one (CONTRACT §1.7).
 */
export const MAX_VALIDATION_PROBLEMS = MAX_ISSUES + 1;

/**
 * The bounds of one run of a CIDR use case (cover, subtract, merge). The HTTP adapter uses the
 * spec's values ({@link API_COVER_LIMITS}, {@link API_SUBTRACT_LIMITS}); the command-line tool,
 * running on the user's own machine, passes {@link LOCAL_CIDR_LIMITS}.
 */
export interface CidrLimits {
  /** Most entries read: cover's `inputs`; subtract's `include` and `exclude` together. */
  readonly maxEntries: number;
  /** Most CIDRs in a result list; a larger one fails with RESULT_TOO_LARGE (subtract, merge). */
  readonly maxResultCidrs: number;
}

/** cidr-cover over HTTP (spec §2.2); cover returns one CIDR, so only `maxEntries` applies. */
export const API_COVER_LIMITS: CidrLimits = { maxEntries: MAX_COVER_INPUTS, maxResultCidrs: 1 };
/** cidr-subtract over HTTP (spec §2.4, §4.2). */
export const API_SUBTRACT_LIMITS: CidrLimits = {
  maxEntries: MAX_SUBTRACT_ENTRIES,
  maxResultCidrs: MAX_RESULT_CIDRS,
};
/**
 * The CIDR additions over HTTP (CONTRACT §7): 1000 entries in total, 10000 CIDRs in a result.
 * cidr-contains answers one result per entry, so only `maxEntries` bounds it.
 */
export const API_LIST_LIMITS: CidrLimits = {
  maxEntries: MAX_LIST_ENTRIES,
  maxResultCidrs: MAX_RESULT_CIDRS,
};

/** cidr-allocate's bounds: those of the other additions and the most blocks one request takes. */
export interface AllocateLimits extends CidrLimits {
  /** Largest `count`. */
  readonly maxCount: number;
}

/** cidr-allocate over HTTP (CONTRACT §7.4). */
export const API_ALLOCATE_LIMITS: AllocateLimits = { ...API_LIST_LIMITS, maxCount: MAX_ALLOCATE_COUNT };

/**
 * A local `nettools` run: no body limit and no other client to protect, but still bounded so a
 * runaway input fails with a message instead of exhausting memory. A million entries is a full
 * routing-table-sized list (parsed in about a second); a million result CIDRs is about 30 MB of text.
 */
export const LOCAL_CIDR_LIMITS: CidrLimits = { maxEntries: 1_000_000, maxResultCidrs: 1_000_000 };

/** A local `nettools alloc` run: any count up to the local result limit. */
export const LOCAL_ALLOCATE_LIMITS: AllocateLimits = {
  ...LOCAL_CIDR_LIMITS,
  maxCount: LOCAL_CIDR_LIMITS.maxResultCidrs,
};

/**
 * A local `nettools cert` run: a whole system CA bundle such as /etc/ssl/certs/ca-certificates.crt
 * (about 220 KB, 150 certificates on Debian 12) is inspected on the user's machine. Candidate issuers come
 * from a subject-name index, so the work grows with the links that exist, not with all pairs.
 */
export const LOCAL_CERTIFICATE_LIMITS = {
  /** Longest PEM text, in characters (and UTF-8 bytes): 4 MiB. */
  maxPemLength: 4 * 1024 * 1024,
  /** Most CERTIFICATE blocks. */
  maxBlocks: 500,
  /**
   * Most blocks of a roots file (`--roots`, NETTOOLS_ROOTS): any number, as a system trust store
   * holds (CONTRACT §9.6); its length is still bounded by `maxPemLength`.
   */
  maxRootBlocks: Number.MAX_SAFE_INTEGER,
} as const;
