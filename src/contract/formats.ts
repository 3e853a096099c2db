/**
 * The string formats the result schemas use (`ipv4`, `ipv6`, `date-time`), as plain predicates:
 * registered with TypeBox's global registry by the typed client (src/client/validate.ts) and by
 * the docs plugin (which must put them back after @elysiajs/openapi replaces them), and called by
 * the build-time validators of the client package (scripts/build-client-package.ts), which carry
 * no TypeBox. No request schema uses a format: the server's validation never depends on them.
 */
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 4291 text (hex groups, one `::`, optional dotted IPv4 tail); the WHATWG URL parser decides. */
function isIpv6(value: string): boolean {
  if (!value.includes(":") || !IPV6_CHARS.test(value)) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** Format name → whether a string has it. A format not listed here is never satisfied. */
export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  ipv4: (value) => IPV4.test(value),
  ipv6: isIpv6,
  "date-time": isDateTime,
};

/** Whether `value` has format `name`; unknown formats fail, as they do in TypeBox. */
export function hasFormat(name: string, value: string): boolean {
  const check = FORMATS[name];
  return check?.(value) === true;
}
