/** A scripted NetworkFacts (CONTRACT §8.10): answers what the test says, typed against the port. */
import type { IpAddr } from "../../src/domain/ip/addr.ts";
import type { AddressDatabase, AsnFacts, CountryFacts, NetworkFacts } from "../../src/domain/ports.ts";

export interface ScriptedNetworkFacts extends NetworkFacts {
  /** Every address the use case asked about, in order (ASN and country questions alike). */
  readonly asked: string[];
}

/** Always the same records, whatever the address; `asked` records the questions. */
export function scriptedNetworkFacts(
  answers: { asn?: AsnFacts | null; country?: CountryFacts | null; databases?: AddressDatabase[] } = {},
): ScriptedNetworkFacts {
  const asked: string[] = [];
  return {
    asked,
    asnOf: (address: IpAddr) => {
      asked.push(`asn ${address}`);
      return answers.asn ?? null;
    },
    countryOf: (address: IpAddr) => {
      asked.push(`country ${address}`);
      return answers.country ?? null;
    },
    databases: () => answers.databases ?? [],
  } satisfies ScriptedNetworkFacts;
}
