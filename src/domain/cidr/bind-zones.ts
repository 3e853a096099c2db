/**
 * What a BIND operator writes for a reverse zone (CONTRACT §12, `nettools rdns --bind` and the
 * page): the zone statement of an octet or nibble zone, and for an RFC 2317 classless zone the
 * parent's NS delegation and `$GENERATE` CNAME lines (RFC 2317 section 4) with the child's
 * statement and `$ORIGIN`. Pure text from a zone name of reverse-zones.ts; checked with
 * named-checkzone by tests/cli/rdns-bind.test.ts.
 */

/** A zone statement for named.conf; the file is named after the zone (`/` written as `-`). */
function zoneStatement(zone: string): string {
  const name = zone.slice(0, -1);
  return `zone "${name}" { type master; file "db.${name.replace("/", "-")}"; };\n`;
}

/**
 * What BIND needs for one zone (CONTRACT §12): the zone statement of an octet or nibble zone;
 * for an RFC 2317 zone `FIRST/p.C.B.A.in-addr.arpa.`, the parent zone's NS delegation and
 * `$GENERATE` CNAME lines (RFC 2317 section 4), then the child's `$ORIGIN` and zone statement.
 */
export function bindText(zone: string, nameServers: readonly string[]): string {
  const classless = /^(\d+)\/(\d+)\.(.+)$/.exec(zone);
  if (classless === null) return `; ${zone}\n${zoneStatement(zone)}`;
  const first = Number(classless[1]);
  const last = first + 2 ** (32 - Number(classless[2])) - 1;
  const parent = classless[3]!;
  let out = `; ${zone} (RFC 2317): in the parent zone ${parent}\n`;
  for (const server of nameServers) out += `${zone}\tIN\tNS\t${server}\n`;
  out += `$GENERATE ${first}-${last} $ CNAME $.${zone}\n`;
  out += `; the child zone ${zone}, its PTR records named ${first} to ${last}\n`;
  out += zoneStatement(zone);
  out += `$ORIGIN ${zone}\n`;
  return out;
}

/**
 * A name server for the parent's NS line as an absolute DNS name (a dot at its end), or null for
 * a name BIND would not take there (a space, nothing, a leading dot). `rdns --ns` and the page.
 */
export function absoluteNameServer(name: string): string | null {
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.startsWith(".")) return null;
  return name.endsWith(".") ? name : `${name}.`;
}
