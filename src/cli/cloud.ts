/**
 * `--cloud aws|azure|gcp|oci` for `nettools info` and `nettools split` (CONTRACT §8.9): the
 * addresses a cloud provider keeps in each IPv4 subnet and what is left, from the domain's rules
 * (src/domain/ip/cloud-reserved.ts, each provider's documentation cited there). Local only: the API
 * has no such field. A block outside the provider's subnet sizes, or IPv6, is exit 2 with a message
 * naming the provider's bound.
 */
import type { ResultOf } from "../client/index.ts";
import {
  CLOUD_PROVIDERS,
  type CloudProvider,
  type CloudReservation,
  cloudSplitText,
  isCloudProvider,
} from "../domain/ip/cloud-reserved.ts";
import type { Run } from "./args.ts";
import { EXIT, type Io, UsageError } from "./io.ts";
import { chooseStyle, type Style, table } from "./render.ts";

/** The option, declared by its lines of help (src/cli/command.ts). */
export const CLOUD_OPTION = {
  "--cloud P": `the addresses cloud provider P keeps in each IPv4 subnet: ${CLOUD_PROVIDERS.join(", ")}
                  (AWS +0 to +3 and the last; Azure +0 to +3 and the last; Google Cloud +0, +1
                  and the last two; OCI +0, +1 and the last); smallest subnet /28 (AWS, largest
                  /16), /29 (Azure, Google Cloud), /30 (OCI)`,
};

/** The provider `--cloud` names; a UsageError for any other name. */
export function cloudProviderOf(name: string): CloudProvider {
  if (isCloudProvider(name)) return name;
  throw new UsageError(`--cloud must be one of ${CLOUD_PROVIDERS.join(", ")}, not "${name}"`);
}

/**
 * Reports an entry `info` or `--cloud` cannot take (not a block, or not a subnet of the provider):
 * the error envelope on stdout with `--json`, else one line on stderr naming `where`. Exit 2.
 */
export function reportInvalidEntry(io: Io, json: boolean, where: string, message: string): number {
  if (json) {
    const issue = { message, path: [] };
    io.stdout(`${JSON.stringify({ error: { code: "INVALID_INPUT", message, issues: [issue] } })}\n`);
  } else {
    const style = chooseStyle(io.stderrIsTty, io.env);
    io.stderr(`${style.red(style.bold("error"))} ${style.bold("INVALID_INPUT")}: ${where}: ${message}\n`);
  }
  return EXIT.invalidInput;
}

const PROVIDER_NAMES: Readonly<Record<CloudProvider, string>> = {
  aws: "AWS",
  azure: "Azure",
  gcp: "Google Cloud",
  oci: "OCI",
};

/** The reservation as lines for `info --cloud` on a terminal: the kept addresses, then what is left. */
export function renderCloud(cloud: CloudReservation, style: Style): string {
  const rows: string[][] = [
    [
      "cloud",
      `${PROVIDER_NAMES[cloud.provider]} (--cloud ${cloud.provider}): ${cloud.reserved.length} addresses reserved`,
    ],
    ...cloud.reserved.map(({ address, role }) => [`  ${address}`, role]),
    [`usable (${cloud.provider})`, `${cloud.usableAddressCount} addresses`],
    [`first usable (${cloud.provider})`, cloud.firstUsable],
    [`last usable (${cloud.provider})`, cloud.lastUsable],
  ];
  return `\n${table(null, rows, style)}`;
}

/**
 * Prints a cidr-split result with `--cloud`: one `CIDR<TAB>USABLE<TAB>FIRST<TAB>LAST` line per
 * subnet (the domain's `cloudSplitText`), or with `--json` the result plus `cloud: { provider,
 * usablePerSubnet }`. Subnets IPv6 or outside the provider's sizes: exit 2.
 */
export function printCloudSplit(result: ResultOf<"cidrSplit">, provider: CloudProvider, run: Run): number {
  const subnets = cloudSplitText(provider, result);
  if (!subnets.ok) return reportInvalidEntry(run.io, run.json, `--cloud ${provider}`, subnets.message);
  const { usablePerSubnet } = subnets.value;
  run.io.stdout(
    run.json
      ? `${JSON.stringify({ ...result, cloud: { provider, usablePerSubnet } })}\n`
      : subnets.value.lines(),
  );
  return EXIT.ok;
}
