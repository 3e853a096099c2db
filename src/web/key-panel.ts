/**
 * The "Does this key match?" panel (CONTRACT §8.2, web page): the key's public hash is computed in
 * the browser (key-match.ts), the certificate text alone goes to `POST /v1/certificate-chain`,
 * and the answer's `certificates[].publicKeySha256` are compared with it. As `nettools key-match`
 * does, a key inside the certificate file (HAProxy's crt file) is the key when none is given, and
 * is ignored, with a notice, when one is. No key byte is ever sent, stored, shown in a message or
 * logged: the certificate text is sent with its key blocks blanked.
 */
import { privateKeyRefusal } from "../client/certificate-answers.ts";
import type { createClient } from "../client/index.ts";
import { certificatesHolding, keyToCompare } from "../local/key-match.ts";
import { setAsidePrivateKeys } from "../local/key-material.ts";
import type { PublicKeyReader } from "../local/ports.ts";
import { loadCertificateFiles, MAX_FILE_BYTES } from "./certificate-inputs.ts";
import { busy, byId, type Child, h, show, summary } from "./dom.ts";
import { type KeyBlock, keyBlocksOf, readPrivateKey } from "./key-match.ts";
import { problem } from "./problems.ts";

type Api = ReturnType<typeof createClient>;

/** A refusal made on this page, before or instead of calling anything. */
function refused(headline: string, message: string): HTMLElement {
  return problem({ error: { code: "INVALID_INPUT", message } }, undefined, headline);
}

export function setUpKeyMatch(api: Api, publicKeys: PublicKeyReader): void {
  const form = byId<HTMLFormElement>("key-form");
  const keyBox = byId<HTMLTextAreaElement>("key-pem");
  const certificateBox = byId<HTMLTextAreaElement>("key-certs");
  const notes = byId("key-file-notes");
  const region = byId("key-result");
  /** Key blocks found in the certificate files last chosen (the reader sets them aside). */
  let keysInFiles: KeyBlock[] = [];

  const keyFile = byId<HTMLInputElement>("key-file");
  keyFile.addEventListener("change", async () => {
    const file = keyFile.files?.[0];
    if (file === undefined) return;
    if (file.size > MAX_FILE_BYTES) {
      show(region, refused("Not read", `${file.name} is ${file.size} bytes: more than a key file holds.`));
      return;
    }
    keyBox.value = await file.text();
  });
  const certificateFiles = byId<HTMLInputElement>("key-certs-file");
  certificateFiles.addEventListener("change", async () => {
    const files = certificateFiles.files;
    if (!files?.length) return;
    keysInFiles = [];
    for (const file of files)
      if (file.size <= MAX_FILE_BYTES) keysInFiles.push(...keyBlocksOf(await file.text()));
    await loadCertificateFiles(files, certificateBox, notes);
  });
  certificateBox.addEventListener("input", () => {
    keysInFiles = [];
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
    const content = await busy(button, () =>
      check(api, publicKeys, keyBox.value, certificateBox.value, keysInFiles),
    );
    show(region, ...content);
    region.focus();
  });
}

async function check(
  api: Api,
  publicKeys: PublicKeyReader,
  keyText: string,
  certificateText: string,
  keysInFiles: KeyBlock[],
): Promise<Child[]> {
  const inCertificates = [...keyBlocksOf(certificateText), ...keysInFiles];
  const chosen = keyToCompare(keyText.trim() === "" ? null : keyBlocksOf(keyText), inCertificates);
  if (!chosen.ok || chosen.key === null) {
    const count = chosen.ok ? 0 : chosen.count;
    return [
      refused(
        "No single private key",
        count === 0
          ? "No private key: paste a PEM private key (or choose its file), or give a certificate file that holds one."
          : `${count} private keys were given: give one.`,
      ),
    ];
  }
  const notices: Child[] = chosen.setAside
    ? [
        h(
          "p",
          { class: "notice", role: "status" },
          "The private key in the certificates was ignored: the key given above is checked.",
        ),
      ]
    : [];
  const reading = await readPrivateKey(chosen.key, publicKeys);
  if (!reading.ok) return [...notices, refused("The key could not be read", reading.message)];
  const pem = setAsidePrivateKeys(certificateText).pem;
  const refusal = privateKeyRefusal(pem);
  if (refusal !== null)
    return [...notices, problem({ error: refusal }, undefined, "Not sent: remove the private key")];
  if (pem.trim() === "")
    return [
      ...notices,
      refused("No certificate", "Paste or choose the certificates to compare the key with."),
    ];
  const chained = await api.certificateChain({ pem });
  if (!chained.ok) return [...notices, problem(chained, undefined, "The certificates were not accepted")];
  const { certificates, status } = chained.value;
  const matching = certificatesHolding(reading.publicKeySha256, certificates).map(
    (index) => certificates[index]!,
  );
  const name = (certificate: (typeof certificates)[number]) =>
    `certificate #${certificate.index} (${certificate.subject || "empty name"})`;
  return [
    ...notices,
    h(
      "p",
      { id: "key-verdict", class: matching.length ? "ok" : "verdict-bad" },
      matching.length
        ? `Match: the key belongs to ${matching.map(name).join(" and ")}.`
        : certificates.length
          ? "No match: no certificate of the chain holds this key's public key."
          : `No match could be checked: the certificates form no chain (${status}); give the server certificate alone.`,
    ),
    summary([
      ["Key", `${reading.keyType}, public key SHA-256 ${reading.publicKeySha256}`],
      ...certificates.map((certificate): [string, string] => [
        `Certificate #${certificate.index}`,
        `${certificate.subject || "(empty name)"}, public key SHA-256 ${certificate.publicKeySha256}${
          certificate.publicKeySha256 === reading.publicKeySha256 ? " (this key)" : ""
        }`,
      ]),
    ]),
  ];
}
