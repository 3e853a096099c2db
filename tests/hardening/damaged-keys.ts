/**
 * Private keys with their armour damaged, as the round-5 attack pasted them (issue 30): every key
 * encoding the CLI and the page may meet, times every way a BEGIN/END line gets broken or lost.
 * Keys are made here with node:crypto (fresh each run, nothing secret in the repository); the
 * OpenSSH one is its format's magic and random bytes, which is all a recogniser may rely on.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";

export interface SampleKey {
  name: string;
  pem: string;
}

/** One key of each encoding, as openssl and ssh-keygen write them. */
export function sampleKeys(): SampleKey[] {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ed = generateKeyPairSync("ed25519");
  const openssh = Buffer.concat([Buffer.from("openssh-key-v1\0"), randomBytes(400)]).toString("base64");
  return [
    { name: "PKCS#8 RSA", pem: rsa.privateKey.export({ type: "pkcs8", format: "pem" }) as string },
    { name: "PKCS#1 RSA", pem: rsa.privateKey.export({ type: "pkcs1", format: "pem" }) as string },
    { name: "SEC1 EC", pem: ec.privateKey.export({ type: "sec1", format: "pem" }) as string },
    { name: "PKCS#8 EC", pem: ec.privateKey.export({ type: "pkcs8", format: "pem" }) as string },
    { name: "PKCS#8 Ed25519", pem: ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string },
    {
      name: "encrypted PKCS#8",
      pem: rsa.privateKey.export({
        type: "pkcs8",
        format: "pem",
        cipher: "aes-256-cbc",
        passphrase: "secret",
      }) as string,
    },
    {
      name: "OpenSSH",
      pem: `-----BEGIN OPENSSH PRIVATE KEY-----\n${openssh.replace(/.{70}/g, "$&\n").trimEnd()}\n-----END OPENSSH PRIVATE KEY-----\n`,
    },
  ];
}

const lines = (pem: string) => pem.trimEnd().split("\n");

/** The ways armour gets damaged: each returns the key text as a person would paste it. */
export const DAMAGES: Record<string, (pem: string) => string> = {
  intact: (pem) => pem,
  "BEGIN with four dashes": (pem) => pem.replace("-----BEGIN", "----BEGIN"),
  "END with four dashes": (pem) => pem.replace(/-----$/, "----"),
  "BEGIN missing": (pem) => `${lines(pem).slice(1).join("\n")}\n`,
  "END missing": (pem) => `${lines(pem).slice(0, -1).join("\n")}\n`,
  "BEGIN cut short": (pem) => pem.replace(/-----BEGIN ([A-Z ]*)-----/, "-----BEGIN PRIV"),
  "bare body": (pem) => `${lines(pem).slice(1, -1).join("\n")}\n`,
  "body on one line": (pem) => `${lines(pem).slice(1, -1).join("")}\n`,
  "relabelled CERTIFICATE": (pem) => pem.replace(/[A-Z ]*PRIVATE KEY/g, "CERTIFICATE"),
  "CRLF and indented": (pem) =>
    `${lines(pem)
      .map((line) => `   ${line}`)
      .join("\r\n")}\r\n`,
  "cut short": (pem) => `${lines(pem).slice(0, 3).join("\n")}\n`,
};

/** The key's base64 body with no white space. */
export function bodyOf(pem: string): string {
  return lines(pem)
    .filter((line) => !line.startsWith("-----"))
    .join("")
    .replace(/\s+/g, "");
}

/**
 * The 16-character windows of `body` (every offset) that `sent` holds, white space removed: what a
 * listener would see of the key. Empty when nothing of it was sent.
 */
export function windowsSeen(body: string, sent: string, width = 16): string[] {
  const compact = sent.replace(/\\[rn]|\s+/g, "");
  const seen: string[] = [];
  for (let i = 0; i + width <= body.length; i++) {
    const window = body.slice(i, i + width);
    if (compact.includes(window)) seen.push(window);
  }
  return seen;
}
