/** A scripted ClientAddressSource: answers what the test says, typed against the port. */
import { IpAddr, parseAddr } from "../../src/domain/ip/addr.ts";
import type { ClientAddressResult, ClientAddressSource } from "../../src/domain/ports.ts";

/** Always observes `ip` (or nothing, for `null`). */
export function fixedClientAddress(ip: string | null): ClientAddressSource {
  let result: ClientAddressResult;
  if (ip === null) result = { ok: false, reason: "the connection has no socket address" };
  else {
    const parsed = parseAddr(ip);
    if (!parsed.ok) throw new Error(parsed.message);
    result = { ok: true, address: parsed.value };
  }
  return { clientAddress: () => result } satisfies ClientAddressSource;
}

/** The loopback default used by tests that do not care about the client address. */
export const loopbackClient = {
  clientAddress: () => ({ ok: true, address: IpAddr.v4(0x7f000001) }),
} satisfies ClientAddressSource;
