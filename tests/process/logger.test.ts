/**
 * The JSON-lines logger's access line (CONTRACT §6): an unmatched path is written cut to 200
 * characters with every control character escaped; matched requests carry no path.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createJsonLogger, loggedPath, UNMATCHED_PATH_MAX } from "../../src/process/logger.ts";

function accessLine(route: string | null, unmatchedPath?: string): string {
  let written = "";
  const logger = createJsonLogger("info", (chunk) => {
    written += chunk;
  });
  logger.access("id-1", "GET", route, route === null ? 404 : 200, 0.25, unmatchedPath);
  logger.flush();
  return written;
}

/** Whether a text holds a C0 control, DEL or a C1 control character. */
function hasControl(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
  }
  return false;
}

describe("unmatched paths in the access line", () => {
  test("the path is written as given when short and printable", () => {
    const record = JSON.parse(accessLine(null, "/wp-admin/setup.php")) as Record<string, unknown>;
    expect(record).toMatchObject({ route: null, path: "/wp-admin/setup.php", status: 404 });
  });

  test("C0, DEL and C1 characters are escaped as \\uXXXX; the text round-trips", () => {
    const path = '/a\u0000b\u001b[31m\u007f\u0085\u009f/"\\';
    const line = accessLine(null, path);
    expect(hasControl(line.slice(0, -1))).toBe(false);
    expect(line).toContain("\\u001b[31m\\u007f\\u0085\\u009f");
    expect((JSON.parse(line) as { path: string }).path).toBe(path);
  });

  test("any path: one valid JSON line, no raw control character, at most 200 characters of it", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (tail) => {
        const path = `/${tail}`;
        const line = accessLine(null, path);
        expect(line.endsWith("\n")).toBe(true);
        expect(line.indexOf("\n")).toBe(line.length - 1);
        expect(hasControl(line.slice(0, -1))).toBe(false);
        const logged = (JSON.parse(line) as { path: string }).path;
        expect(logged.length).toBeLessThanOrEqual(UNMATCHED_PATH_MAX);
        // Escapes (lone surrogates included) decode back to exactly the first 200 code units.
        expect(logged).toBe(path.slice(0, UNMATCHED_PATH_MAX));
      }),
      { numRuns: 300 },
    );
  });

  test("a matched request's line has its route and no path, even if one is passed", () => {
    const record = JSON.parse(accessLine("/v1/health", "/ignored")) as Record<string, unknown>;
    expect(record.route).toBe("/v1/health");
    expect("path" in record).toBe(false);
  });

  test("loggedPath cuts before escaping: 200 characters of path, however long the escapes", () => {
    const literal = loggedPath("\u0001".repeat(500));
    expect(JSON.parse(literal)).toBe("\u0001".repeat(200));
  });
});

describe("the client's address in the access line (LOG_CLIENT_ADDRESS, CONTRACT §6)", () => {
  const line = (clientAddress?: string | null): Record<string, unknown> => {
    let written = "";
    const logger = createJsonLogger("info", (chunk) => {
      written += chunk;
    });
    logger.access("id-1", "GET", "/v1/health", 200, 0.25, undefined, clientAddress);
    logger.flush();
    return JSON.parse(written) as Record<string, unknown>;
  };

  test("absent unless given; the address as given, or null when none was observed", () => {
    expect(Object.hasOwn(line(), "clientAddress")).toBe(false);
    expect(line("203.0.113.7").clientAddress).toBe("203.0.113.7");
    expect(line("2001:db8::1").clientAddress).toBe("2001:db8::1");
    expect(line("::ffff:192.0.2.1").clientAddress).toBe("::ffff:192.0.2.1");
    expect(line(null)).toMatchObject({ clientAddress: null, route: "/v1/health", status: 200 });
  });
});
