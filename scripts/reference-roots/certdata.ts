/**
 * Reads NSS `certdata.txt` (lib/ckfw/builtins/certdata.txt): the roots Mozilla trusts for TLS
 * server authentication, each with its `CKA_NSS_SERVER_DISTRUST_AFTER` where set.
 *
 * The file is a list of PKCS #11 objects, each a run of attribute lines (`CKA_NAME TYPE VALUE`,
 * or `CKA_NAME MULTILINE_OCTAL` followed by lines of `\ooo` escapes up to `END`), objects
 * separated by comments and blank lines. A certificate object (`CKO_CERTIFICATE`) carries the DER
 * (`CKA_VALUE`); a trust object (`CKO_NSS_TRUST`) names its certificate by `CKA_ISSUER` and
 * `CKA_SERIAL_NUMBER` and carries `CKA_TRUST_SERVER_AUTH`. A root is kept when its trust object
 * says `CKT_NSS_TRUSTED_DELEGATOR` for server authentication (CONTRACT §9.2).
 */

/** One attribute's value: a token (`CK_TRUE`, `CKT_NSS_TRUSTED_DELEGATOR`, a quoted label) or bytes. */
export type AttributeValue = { kind: "token"; text: string } | { kind: "bytes"; bytes: Uint8Array };

/** One PKCS #11 object of the file: its attributes by name, and the file lines it came from. */
export interface CertdataObject {
  attributes: Map<string, AttributeValue>;
  /** The 1-based line number of the object's first attribute. */
  line: number;
  /** The object's own lines (attributes and their octal bodies), as written in the file. */
  lines: string[];
}

/** A root trusted for TLS server authentication, as certdata.txt describes it. */
export interface CertdataRoot {
  label: string;
  der: Uint8Array;
  /** `CKA_NSS_SERVER_DISTRUST_AFTER` in ms since the epoch, or null when it is `CK_FALSE`/absent. */
  serverDistrustAfter: number | null;
  /**
   * The distrust attribute's lines exactly as in the file, after the comment that states the date in
   * words when there is one (empty when none): the snapshot records them.
   */
  distrustLines: string[];
}

/** Splits the file into its objects. Throws on a MULTILINE_OCTAL body that never ends. */
export function readObjects(text: string): CertdataObject[] {
  const lines = text.split(/\r?\n/);
  const objects: CertdataObject[] = [];
  let current: CertdataObject | null = null;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (!line.startsWith("CKA_")) {
      if (line.trim() === "" && current !== null) current = null;
      continue;
    }
    const [name, type, ...rest] = line.split(/\s+/);
    if (name === undefined || type === undefined) continue;
    if (name === "CKA_CLASS" || current === null) {
      current = { attributes: new Map(), line: k + 1, lines: [] };
      objects.push(current);
    }
    // Mozilla's tooling writes a distrust date in words on the line before it: kept with it.
    const previous = lines[k - 1] ?? "";
    if (name.endsWith("_DISTRUST_AFTER") && previous.startsWith("# For ")) current.lines.push(previous);
    current.lines.push(line);
    if (type === "MULTILINE_OCTAL") {
      const bytes: number[] = [];
      for (k++; k < lines.length && lines[k] !== "END"; k++) {
        const body = lines[k]!;
        current.lines.push(body);
        for (const match of body.matchAll(/\\([0-7]{3})/g)) bytes.push(Number.parseInt(match[1]!, 8));
      }
      if (k >= lines.length) throw new Error(`certdata.txt: ${name} at line ${current.line} has no END`);
      current.lines.push("END");
      current.attributes.set(name, { kind: "bytes", bytes: Uint8Array.from(bytes) });
    } else {
      const value = rest.join(" ");
      current.attributes.set(name, { kind: "token", text: value === "" ? type : value });
    }
  }
  return objects;
}

/**
 * The roots trusted for TLS server authentication, in the file's order, each with its server
 * distrust date. Throws when a trusted root's certificate object is missing or a date does not read.
 */
export function readServerAuthRoots(text: string): CertdataRoot[] {
  const objects = readObjects(text);
  const certificates = new Map<string, CertdataObject>();
  for (const object of objects) {
    if (token(object, "CKA_CLASS") === "CKO_CERTIFICATE") certificates.set(issuerSerialKey(object), object);
  }
  const roots: CertdataRoot[] = [];
  for (const object of objects) {
    if (token(object, "CKA_CLASS") !== "CKO_NSS_TRUST") continue;
    if (token(object, "CKA_TRUST_SERVER_AUTH") !== "CKT_NSS_TRUSTED_DELEGATOR") continue;
    const certificate = certificates.get(issuerSerialKey(object));
    const der = certificate && bytes(certificate, "CKA_VALUE");
    if (!certificate || !der)
      throw new Error(`certdata.txt: no certificate for the trust at line ${object.line}`);
    const distrust = certificate.attributes.get("CKA_NSS_SERVER_DISTRUST_AFTER");
    roots.push({
      label: unquote(token(certificate, "CKA_LABEL") ?? ""),
      der,
      serverDistrustAfter: distrust?.kind === "bytes" ? asn1Time(distrust.bytes) : null,
      distrustLines:
        distrust?.kind === "bytes" ? attributeLines(certificate, "CKA_NSS_SERVER_DISTRUST_AFTER") : [],
    });
  }
  return roots;
}

/**
 * An ASN.1 UTCTime (`YYMMDDHHMMSSZ`, years 50–99 in the 1900s) or GeneralizedTime
 * (`YYYYMMDDHHMMSSZ`) text, as NSS stores distrust dates, in ms since the epoch.
 */
export function asn1Time(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) throw new Error(`certdata.txt: a distrust date reads ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const year = match[1]!.length === 4 ? y : y < 50 ? 2000 + y : 1900 + y;
  return Date.UTC(year, mo - 1, d, h, mi, s);
}

function attributeLines(object: CertdataObject, name: string): string[] {
  const at = object.lines.findIndex((line) => line.startsWith(`${name} `));
  const end = object.lines.indexOf("END", at);
  if (at === -1 || end === -1) return [];
  const start = object.lines[at - 1]?.startsWith("# For ") ? at - 1 : at;
  return object.lines.slice(start, end + 1);
}

function token(object: CertdataObject, name: string): string | null {
  const value = object.attributes.get(name);
  return value?.kind === "token" ? value.text : null;
}

function bytes(object: CertdataObject, name: string): Uint8Array | null {
  const value = object.attributes.get(name);
  return value?.kind === "bytes" ? value.bytes : null;
}

function issuerSerialKey(object: CertdataObject): string {
  const hex = (name: string) => Buffer.from(bytes(object, name) ?? new Uint8Array()).toString("hex");
  return `${hex("CKA_ISSUER")}/${hex("CKA_SERIAL_NUMBER")}`;
}

function unquote(text: string): string {
  return text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}
