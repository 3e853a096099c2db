/**
 * Host bits set in a CIDR's text (`192.0.2.0/22`): CONTRACT §2 uses such an entry as its network
 * (`192.0.0.0/22`), and the CLI says so (CONTRACT §12). This names the network used.
 */
import { scanAddrWords, trimAsciiWhitespace } from "./addr.ts";
import { IpPrefix, scanPrefixWords } from "./prefix.ts";

const given = new Uint32Array(4);
const network = new Uint32Array(5);

/**
 * The network `text` stands for when `text` is a valid CIDR whose address has host bits set
 * (`"192.0.2.0/22"` → `"192.0.0.0/22"`); `null` for a CIDR without host bits, a bare address
 * (never warned about), or text that is not a CIDR. Allocates nothing on the common path.
 */
export function hostBitsNetwork(text: string): string | null {
  const bits = scanPrefixWords(text, network);
  if (bits < 0) return null;
  const s = trimAsciiWhitespace(text);
  const slash = s.indexOf("/");
  if (slash < 0) return null;
  if (scanAddrWords(s, 0, slash, given) === 0) return null;
  if (
    given[0] === network[0] &&
    given[1] === network[1] &&
    given[2] === network[2] &&
    given[3] === network[3]
  )
    return null;
  const family = network[4] === 4 ? 4 : 6;
  return IpPrefix.ofNetworkWords(family, network[0]!, network[1]!, network[2]!, network[3]!, bits).toString();
}
