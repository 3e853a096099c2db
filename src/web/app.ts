/**
 * The web page's script: plain DOM, calling the API through the typed client (same origin).
 * Every result is rendered with textContent (never innerHTML): certificate names are data.
 * Nothing is stored: no cookies, no localStorage, no sessionStorage.
 */

import { BinaryInputError, CertificateBundleText } from "../cli/certificate-files.ts";
import { linesOf } from "../cli/input.ts";
import {
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
  setAsidePrivateKeys,
} from "../client/certificate-answers.ts";
import {
  type ApiResult,
  type CertificateBundleRequestType,
  type CertificateBundleResultType,
  type CertificateChainRequestType,
  type CertificateChainResultType,
  createClient,
  type ErrorIssue,
  type Finding,
} from "../client/index.ts";
import { locateLine } from "../client/text-location.ts";

const api = createClient({ baseUrl: "" });

type Child = Node | string | null | undefined | false;

/** `h("p", { class: "x" }, "text", child)`: an element with attributes and children. */
function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing`);
  return element as T;
}

/** The entries of a list field, and the field's label and line of each, to place the API's issues. */
interface ListInput {
  field: string;
  label: string;
  entries: string[];
  lines: number[];
}

/**
 * Reads a list field with the CLI's own list reader (CONTRACT §7.6): a byte-order mark, blank
 * lines, whole-line and trailing `#` comments and CRLF are dropped here, so the API, whose lists
 * stay strict, gets only the entries.
 */
function listInput(id: string, field: string): ListInput {
  const box = byId<HTMLTextAreaElement>(id);
  const { entries, origins } = linesOf(box.value, "");
  return {
    field,
    label: document.querySelector(`label[for="${id}"]`)?.textContent ?? field,
    entries: entries.map((entry) => entry.trim()),
    lines: origins.map((origin) => Number(origin.slice(1))),
  };
}

function show(region: HTMLElement, ...content: Child[]): void {
  region.replaceChildren();
  for (const child of content) if (child) region.append(child);
}

/** Runs `work` with the form's button marked busy. */
async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

function describePath(path: readonly (string | number)[] | undefined): string {
  if (path === undefined || path.length === 0) return "";
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text ? `.${part}` : part;
  return text;
}

/** A failure to show: a call's result, or a refusal made on this page without calling anything. */
interface Failure {
  status?: number | undefined;
  error: { code: string; message: string; issues?: readonly ErrorIssue[] | undefined };
}

const HEADLINES: Record<string, string> = {
  NETWORK_ERROR: "Network error: the service could not be reached",
  INVALID_RESPONSE: "Invalid response: the service's answer did not match the API",
};

/**
 * A failed call: the code, the message and every issue. `onLocation` renders issues that point
 * into the PEM text (certificate form only).
 */
function problem(
  result: Failure,
  onLocation?: (issue: ErrorIssue, location: NonNullable<ErrorIssue["location"]>) => Node | null,
  headlineOverride?: string,
  lists: readonly ListInput[] = [],
): HTMLElement {
  const { error } = result;
  const headline = headlineOverride ?? HEADLINES[error.code] ?? "The request was not accepted";
  const status = result.status === undefined ? "" : ` (HTTP ${result.status})`;
  const items = (error.issues ?? []).map((issue: ErrorIssue) => {
    const path = describePath(issue.path);
    const list = lists.find((input) => input.field === issue.path?.[0]);
    const index = issue.path?.[1];
    const line = list && typeof index === "number" ? list.lines[index] : undefined;
    const where = issue.location
      ? `Line ${issue.location.line}: `
      : list && line !== undefined
        ? `${list.label}, line ${line}: `
        : path
          ? h("code", {}, `${path}: `)
          : "";
    const located = issue.location && onLocation ? onLocation(issue, issue.location) : null;
    return h("li", {}, where, issue.message, located);
  });
  return h(
    "div",
    { class: "problem", role: "alert" },
    h("h3", {}, headline),
    h("p", {}, h("code", {}, error.code), `${status}: ${error.message}`),
    items.length ? h("ul", {}, ...items) : null,
  );
}

function cidrTable(cidrs: readonly string[], caption: string): HTMLElement {
  if (cidrs.length === 0)
    return h("p", { class: "ok" }, "Nothing remains: every included address was removed.");
  return h(
    "table",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "CIDR"))),
    h(
      "tbody",
      {},
      ...cidrs.map((cidr, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", { class: "mono" }, cidr))),
    ),
  );
}

/** The CIDRs one a line in a read-only box, ready to select and copy, with a copy button. */
function plainList(cidrs: readonly string[], label: string): HTMLElement {
  const box = h("textarea", {
    class: "mono plain-list",
    readonly: "",
    rows: String(Math.min(10, Math.max(2, cidrs.length))),
    "aria-label": label,
    spellcheck: "false",
  }) as HTMLTextAreaElement;
  box.value = cidrs.join("\n");
  const copy = h("button", { type: "button", class: "copy" }, "Copy the list") as HTMLButtonElement;
  copy.addEventListener("click", () => {
    box.select();
    void navigator.clipboard?.writeText(box.value).then(
      () => {
        copy.textContent = "Copied";
      },
      () => undefined,
    );
  });
  return h("div", { class: "plain" }, h("p", { class: "hint" }, label), box, copy);
}

function numberOf(id: string): number {
  return Number(byId<HTMLInputElement>(id).value);
}

function summary(rows: [string, string][]): HTMLElement {
  const list = h("dl", { class: "summary" });
  for (const [term, value] of rows) list.append(h("dt", {}, term), h("dd", {}, value));
  return list;
}

/** Shows a result (or its problem) in the region and moves focus there for screen readers. */
function present<T>(
  region: HTMLElement,
  result: ApiResult<T>,
  render: (value: T) => Child[],
  lists: readonly ListInput[] = [],
): void {
  if (result.ok) show(region, ...render(result.value));
  else show(region, problem(result, undefined, undefined, lists));
  region.focus();
}

function setUpCidr(): void {
  const region = byId("cidr-result");
  const coverForm = byId<HTMLFormElement>("cover-form");
  coverForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = coverForm.querySelector("button") as HTMLButtonElement;
    const inputs = listInput("cover-inputs", "inputs");
    const result = await busy(button, () => api.cidrCover({ inputs: inputs.entries }));
    present(
      region,
      result,
      (value) => [
        h("h3", {}, "Cover"),
        summary([
          ["CIDR", value.cidr],
          ["Family", value.family],
          ["Range", `${value.range.first} – ${value.range.last}`],
          ["Input addresses", value.inputAddressCount],
          ["Covered addresses", value.coveredAddressCount],
          ["Additional addresses", value.additionalAddressCount],
        ]),
      ],
      [inputs],
    );
  });

  const subtractForm = byId<HTMLFormElement>("subtract-form");
  subtractForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = subtractForm.querySelector("button") as HTMLButtonElement;
    const include = listInput("subtract-include", "include");
    const exclude = listInput("subtract-exclude", "exclude");
    const result = await busy(button, () =>
      api.cidrSubtract({ include: include.entries, exclude: exclude.entries }),
    );
    present(
      region,
      result,
      (value) => [
        h("h3", {}, "Subtraction"),
        summary([
          ["Family", value.family],
          ["Included addresses", value.includedAddressCount],
          ["Removed addresses", value.removedAddressCount],
          ["Remaining addresses", value.remainingAddressCount],
        ]),
        cidrTable(value.cidrs, `${value.cidrs.length} CIDRs remain`),
        plainList(value.cidrs, "As a plain list"),
      ],
      [include, exclude],
    );
  });

  const rangeForm = byId<HTMLFormElement>("range-form");
  rangeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = rangeForm.querySelector("button") as HTMLButtonElement;
    const start = byId<HTMLInputElement>("range-start").value;
    const end = byId<HTMLInputElement>("range-end").value;
    const result = await busy(button, () => api.rangeToCidrs({ start, end }));
    present(region, result, (value) => [
      h("h3", {}, "Range to CIDRs"),
      summary([
        ["Family", value.family],
        ["Range", `${value.range.first} – ${value.range.last}`],
        ["Addresses", value.addressCount],
      ]),
      cidrTable(value.cidrs, `${value.cidrCount} CIDRs cover the range`),
      plainList(value.cidrs, "As a plain list"),
    ]);
  });

  const mergeForm = byId<HTMLFormElement>("merge-form");
  mergeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = mergeForm.querySelector("button") as HTMLButtonElement;
    const inputs = listInput("merge-inputs", "inputs");
    const result = await busy(button, () => api.cidrMerge({ inputs: inputs.entries }));
    present(
      region,
      result,
      (value) => [
        h("h3", {}, "Merge"),
        summary([
          ["IPv4 addresses", value.ipv4AddressCount],
          ["IPv6 addresses", value.ipv6AddressCount],
        ]),
        cidrTable(value.cidrs, `${value.cidrs.length} CIDRs cover the list`),
        plainList(value.cidrs, "As a plain list"),
      ],
      [inputs],
    );
  });

  const splitForm = byId<HTMLFormElement>("split-form");
  splitForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = splitForm.querySelector("button") as HTMLButtonElement;
    const cidr = byId<HTMLInputElement>("split-cidr").value;
    const prefixLength = numberOf("split-length");
    const result = await busy(button, () => api.cidrSplit({ cidr, prefixLength }));
    present(region, result, (value) => [
      h("h3", {}, "Split"),
      summary([
        ["Block", value.network],
        ["Subnets", `${value.subnetCount} × /${value.prefixLength}`],
      ]),
      cidrTable(value.cidrs, `${value.subnetCount} subnets`),
      plainList(value.cidrs, "As a plain list"),
    ]);
  });

  const containsForm = byId<HTMLFormElement>("contains-form");
  containsForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = containsForm.querySelector("button") as HTMLButtonElement;
    const cidrs = listInput("contains-cidrs", "cidrs");
    const entries = listInput("contains-entries", "entries");
    const result = await busy(button, () =>
      api.cidrContains({ cidrs: cidrs.entries, entries: entries.entries }),
    );
    present(
      region,
      result,
      (value) => [
        h("h3", {}, "Contains"),
        h(
          "table",
          {},
          h("caption", {}, `${value.results.length} entries`),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Entry"),
              h("th", { scope: "col" }, "Contained"),
              h("th", { scope: "col" }, "Overlaps"),
              h("th", { scope: "col" }, "Most specific block"),
            ),
          ),
          h(
            "tbody",
            {},
            ...value.results.map((r) =>
              h(
                "tr",
                {},
                h("td", { class: "mono" }, r.entry),
                h("td", {}, r.contained ? "yes" : "no"),
                h("td", {}, r.overlaps ? "yes" : "no"),
                h("td", { class: "mono" }, r.matchedCidr ?? "—"),
              ),
            ),
          ),
        ),
        plainList(
          value.results.filter((r) => r.contained).map((r) => r.entry),
          "Contained entries as a plain list",
        ),
      ],
      [cidrs, entries],
    );
  });

  const allocateForm = byId<HTMLFormElement>("allocate-form");
  allocateForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = allocateForm.querySelector("button") as HTMLButtonElement;
    const within = listInput("allocate-within", "within");
    const used = listInput("allocate-used", "used");
    const prefixLength = numberOf("allocate-length");
    const count = numberOf("allocate-count");
    const result = await busy(button, () =>
      api.cidrAllocate({ within: within.entries, used: used.entries, prefixLength, count }),
    );
    present(
      region,
      result,
      (value) => [
        h("h3", {}, "Allocation"),
        summary([["Still free", `${value.freeAddressCount} addresses`]]),
        cidrTable(value.cidrs, `${value.cidrs.length} blocks allocated`),
        plainList(value.cidrs, "As a plain list"),
      ],
      [within, used],
    );
  });
}

const SEVERITY_TITLES: Record<Finding["severity"], string> = {
  error: "Errors",
  warning: "Warnings",
  info: "Information",
};

function findingsView(findings: readonly Finding[]): HTMLElement {
  const view = h("div", { class: "findings" }, h("h3", {}, "Findings"));
  if (findings.length === 0) view.append(h("p", { class: "ok" }, "No findings."));
  for (const severity of ["error", "warning", "info"] as const) {
    const group = findings.filter((finding) => finding.severity === severity);
    if (group.length === 0) continue;
    const items = group.map((finding) =>
      h(
        "li",
        {},
        h("strong", {}, finding.code),
        finding.certificateIndexes.length ? ` — certificate ${finding.certificateIndexes.join(", ")}` : "",
        h("p", {}, finding.observed),
        h("p", {}, `Next: ${finding.nextAction}`),
      ),
    );
    view.append(
      h(
        "section",
        { class: `severity-${severity}`, "aria-label": `${SEVERITY_TITLES[severity]} (${group.length})` },
        h("h4", {}, `${SEVERITY_TITLES[severity]} (${group.length})`),
        h("ul", {}, ...items),
      ),
    );
  }
  return view;
}

function yesNo(value: boolean | null): string {
  return value === null ? "—" : value ? "yes" : "no";
}

function certificateView(value: CertificateBundleResultType): Child[] {
  const certificates = h(
    "table",
    {},
    h("caption", {}, `${value.certificates.length} certificates (evaluated at ${value.evaluatedAt})`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["#", "Line", "Subject", "Issuer", "Valid until", "CA", "Self-signature"].map((title) =>
          h("th", { scope: "col" }, title),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      ...value.certificates.map((c) =>
        h(
          "tr",
          {},
          h("td", {}, String(c.index)),
          h("td", {}, String(c.line)),
          h("td", { class: "mono" }, c.subject || "(empty)"),
          h("td", { class: "mono" }, c.issuer || "(empty)"),
          h("td", {}, c.notAfter),
          h("td", {}, yesNo(c.ca)),
          h("td", {}, c.selfSignature ?? "—"),
        ),
      ),
    ),
  );
  const hostname =
    value.hostname === null ? "not checked" : `${value.hostname.expected}: ${value.hostname.status}`;
  const warnings = missingIntermediates(value.findings).map((finding) =>
    h(
      "p",
      { class: "warning", role: "status" },
      h("strong", {}, "Warning: "),
      missingIntermediateWarning(finding),
    ),
  );
  return [
    ...warnings,
    findingsView(value.findings),
    summary([
      ["Possible leaves", value.leafIndexes.length ? value.leafIndexes.join(", ") : "none"],
      ["Selected leaf", value.selectedLeafIndex === null ? "—" : String(value.selectedLeafIndex)],
      ["Hostname", hostname],
    ]),
    certificates,
  ];
}

const VERDICTS: Record<CertificateChainResultType["status"], string> = {
  complete: "Complete: the chain reaches a trust anchor.",
  incomplete: "Incomplete: an issuer is missing.",
  ambiguous: "Several possible server certificates: give the leaf position or the hostname.",
  "no-leaf": "No server certificate in the bundle.",
};

/**
 * The "Chain to deploy" panel: verdict, problems, and, for a complete chain only, the corrected
 * PEM with Copy and Download; for an incomplete one, what is missing and where to get it.
 */
function chainView(value: CertificateChainResultType): HTMLElement {
  const errors = value.problems.filter((problem) => problem.severity === "error").length;
  const verdict =
    value.status === "complete" && errors > 0
      ? `Complete, but ${errors === 1 ? "1 problem is an error" : `${errors} problems are errors`}.`
      : VERDICTS[value.status];
  const panel = h(
    "section",
    { class: "chain", "aria-labelledby": "chain-heading" },
    h("h3", { id: "chain-heading" }, "Chain to deploy"),
    h(
      "p",
      { class: value.status === "complete" && errors === 0 ? "ok" : "verdict-bad", id: "chain-verdict" },
      verdict,
    ),
  );
  const problems = h("ul", { id: "chain-problems" });
  for (const problem of value.problems) {
    problems.append(
      h(
        "li",
        { class: `severity-${problem.severity}` },
        h("strong", {}, `${problem.code} (${problem.severity})`),
        h("p", {}, problem.observed),
        h("p", {}, `Next: ${problem.nextAction}`),
      ),
    );
  }
  panel.append(value.problems.length ? problems : h("p", { class: "ok" }, "No problems."));
  // Only a complete chain is offered for deployment (CONTRACT §7.1): an incomplete one would
  // break clients without the missing issuer cached, so it is never handed out here.
  if (value.status === "incomplete" && value.anchor !== null) panel.append(missingIssuerView(value.anchor));
  if (value.status !== "complete" || value.fullchainPem === "") return panel;
  const pem = h("pre", {
    id: "chain-pem",
    class: "mono",
    tabindex: "0",
    "aria-label": "Corrected chain (PEM)",
  });
  pem.textContent = value.fullchainPem;
  const copy = h("button", { type: "button", class: "secondary" }, "Copy") as HTMLButtonElement;
  copy.addEventListener("click", () => {
    void navigator.clipboard?.writeText(value.fullchainPem);
  });
  const download = h(
    "button",
    { type: "button", class: "secondary" },
    "Download fullchain.pem",
  ) as HTMLButtonElement;
  download.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([value.fullchainPem], { type: "application/x-pem-file" }));
    const link = h("a", { href: url, download: "fullchain.pem" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  panel.append(
    h(
      "p",
      { class: "hint" },
      "The corrected chain: server certificate first, each issuer after it, the root left out.",
    ),
    pem,
    h("div", { class: "row" }, copy, download),
  );
  return panel;
}

/**
 * What an incomplete chain lacks: the missing issuer's name and where its CA publishes it (the
 * last member's `caIssuers` URLs). Only http(s) URLs become links: the text comes from a
 * certificate, and a `javascript:` URL must never be one click away.
 */
function missingIssuerView(anchor: NonNullable<CertificateChainResultType["anchor"]>): HTMLElement {
  const urls = anchor.caIssuersUrls.map((url) =>
    h(
      "li",
      {},
      /^https?:\/\//i.test(url)
        ? h("a", { href: url, rel: "noopener noreferrer", class: "mono" }, url)
        : h("span", { class: "mono" }, url),
    ),
  );
  return h(
    "div",
    { class: "missing", id: "chain-missing" },
    h("p", {}, "Missing issuer ", h("span", { class: "mono" }, anchor.subject || "(empty name)"), "."),
    urls.length
      ? h("p", {}, "Its CA publishes it at (add it to the bundle, converted to PEM, and inspect again):")
      : h("p", {}, "The certificate names no place to download it: ask its CA for the intermediate."),
    urls.length ? h("ul", {}, ...urls) : null,
    h("p", { class: "hint" }, "No chain is offered for deployment until it is complete."),
  );
}

/** A hostname the bundle endpoint takes (DNS names only); an address goes to the chain check alone. */
function looksLikeAddress(hostname: string): boolean {
  const text = hostname.trim();
  return text.includes(":") || /^[0-9.]+$/.test(text);
}

/** Lines around a PEM problem, the located line highlighted, and a button to select it in the editor. */
function pemExcerpt(
  pem: string,
  textarea: HTMLTextAreaElement,
  location: NonNullable<ErrorIssue["location"]>,
): Node | null {
  const found = locateLine(pem, location);
  if (found === null) return null;
  const all = pem.split(/\r\n|\r|\n/);
  const first = Math.max(1, found.line - 2);
  const last = Math.min(all.length, found.line + 2);
  const excerpt = h("div", {
    class: "excerpt",
    role: "group",
    "aria-label": `Lines ${first} to ${last} of the PEM`,
  });
  for (let n = first; n <= last; n++) {
    const text = all[n - 1] ?? "";
    const number = h("span", { class: "ln", "aria-hidden": "true" }, String(n));
    if (n !== found.line) {
      excerpt.append(h("div", {}, number, text || " "));
      continue;
    }
    const to = found.to > found.from ? found.to : text.length;
    excerpt.append(
      h(
        "div",
        { class: "located", "data-line": String(n) },
        number,
        text.slice(0, found.from),
        h("mark", { "aria-label": `line ${n}, the problem` }, text.slice(found.from, to) || " "),
        text.slice(to),
      ),
    );
  }
  const select = h(
    "button",
    { type: "button", class: "secondary", "data-select-line": String(found.line) },
    `Select line ${found.line} in the editor`,
  ) as HTMLButtonElement;
  select.addEventListener("click", () => {
    textarea.focus();
    textarea.setSelectionRange(found.start, found.start + found.text.length);
    // Scroll the selection into view: place the caret line near the top of the box.
    const lineHeight = textarea.scrollHeight / Math.max(1, all.length);
    textarea.scrollTop = Math.max(0, (found.line - 3) * lineHeight);
  });
  return h("div", {}, excerpt, select);
}

/** Most bytes read from the files of one pick: far above any bundle the API takes (48 KiB of PEM). */
const MAX_FILE_BYTES = 1 << 20;

/**
 * Certificate files as people have them, read here with the CLI's own reader (CONTRACT §7.6):
 * PEM, DER (`.cer`, `.der`, `.crt`), DER or PEM PKCS#7 (`.p7b`, `.p7c`), several files as one
 * bundle in order, a byte-order mark ignored; a private key block is set aside before the text
 * reaches the editor, so it is never shown or sent. Returns the PEM text and the notices, or a
 * one-line refusal (binary data names its offset and at most 16 bytes in hex).
 */
async function readCertificateFiles(files: FileList): Promise<CertificateBundleText | string> {
  let size = 0;
  for (const file of files) size += file.size;
  if (size > MAX_FILE_BYTES)
    return `${size} bytes chosen: more than a certificate bundle holds (1 MiB read at most).`;
  const bundle = new CertificateBundleText();
  try {
    for (const file of files) bundle.addFile(new Uint8Array(await file.arrayBuffer()), file.name);
  } catch (error) {
    if (error instanceof BinaryInputError) return error.message;
    throw error;
  }
  return bundle;
}

/**
 * PEM PKCS#7 blocks pasted in a box become their certificates in the box itself (so that issue
 * locations point at what the user sees), as the CLI reads them; returns the notices.
 */
function convertPastedPkcs7(box: HTMLTextAreaElement): string[] {
  if (!/-----BEGIN (PKCS7|CMS)-----/.test(box.value)) return [];
  const bundle = new CertificateBundleText();
  bundle.addText(box.value, "the pasted text");
  box.value = bundle.pem;
  return bundle.notices;
}

function setUpCertificates(): void {
  const form = byId<HTMLFormElement>("cert-form");
  const textarea = byId<HTMLTextAreaElement>("cert-pem");
  const region = byId("cert-result");
  const fileInput = byId<HTMLInputElement>("cert-file");

  const notes = byId("cert-file-notes");
  const load = async (files: FileList | null | undefined, target: HTMLTextAreaElement) => {
    if (!files?.length) return;
    const read = await readCertificateFiles(files);
    if (typeof read === "string") {
      show(notes, h("p", { class: "problem", role: "alert" }, read));
      return;
    }
    target.value = read.pem;
    show(notes, ...read.notices.map((notice) => h("p", { class: "notice", role: "status" }, notice)));
    target.focus();
  };
  fileInput.addEventListener("change", () => void load(fileInput.files, textarea));
  const rootsFile = byId<HTMLInputElement>("cert-roots-file");
  rootsFile.addEventListener("change", () => void load(rootsFile.files, byId("cert-roots")));
  textarea.addEventListener("dragover", (event) => {
    event.preventDefault();
    textarea.classList.add("dragging");
  });
  textarea.addEventListener("dragleave", () => textarea.classList.remove("dragging"));
  textarea.addEventListener("drop", (event) => {
    event.preventDefault();
    textarea.classList.remove("dragging");
    void load(event.dataTransfer?.files, textarea);
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
    const rootsBox = byId<HTMLTextAreaElement>("cert-roots");
    const converted = [...convertPastedPkcs7(textarea), ...convertPastedPkcs7(rootsBox)];
    // A private key never leaves the page and no line of it is displayed: a complete key block is
    // set aside with a notice naming its position; an incomplete one is refused, by line only.
    const aside = setAsidePrivateKeys(textarea.value);
    const pem = aside.pem;
    const notices = [...converted, ...aside.notices].map((notice) =>
      h("p", { class: "notice", role: "status" }, notice),
    );
    const refusal = privateKeyRefusal(pem);
    if (refusal !== null) {
      show(region, problem({ error: refusal }, undefined, "Not sent: remove the private key"));
      region.focus();
      return;
    }
    const request: CertificateBundleRequestType = { pem };
    const chainRequest: CertificateChainRequestType = { pem };
    const hostname = byId<HTMLInputElement>("cert-hostname").value;
    if (hostname.trim() !== "") {
      chainRequest.hostname = hostname;
      if (!looksLikeAddress(hostname)) request.hostname = hostname;
    }
    const leaf = byId<HTMLInputElement>("cert-leaf").value;
    if (leaf !== "") {
      request.leafIndex = Number(leaf);
      chainRequest.leafIndex = Number(leaf);
    }
    const roots = setAsidePrivateKeys(rootsBox.value);
    notices.push(
      ...roots.notices.map((notice) =>
        h("p", { class: "notice", role: "status" }, `Your own root: ${notice}`),
      ),
    );
    if (roots.pem.trim() !== "") chainRequest.roots = roots.pem;
    const [result, chained] = await busy(button, () =>
      Promise.all([api.certificateBundle(request), api.certificateChain(chainRequest)]),
    );
    if (result.ok)
      show(
        region,
        ...notices,
        chained.ok ? chainView(chained.value) : problem(chained, undefined, "The chain could not be built"),
        ...certificateView(result.value),
      );
    else
      show(
        region,
        ...notices,
        problem(result, (_issue, location) => pemExcerpt(pem, textarea, location)),
      );
    region.focus();
  });
}

function setUpMyIp(): void {
  const button = byId<HTMLButtonElement>("myip-button");
  const region = byId("myip-result");
  button.addEventListener("click", async () => {
    const result = await busy(button, () => api.publicIp());
    present(region, result, (value) => [
      h("p", {}, "This server sees your connection coming from ", h("span", { class: "ip" }, value.ip), "."),
      h("p", { class: "hint" }, value.family === "ipv4" ? "IPv4" : "IPv6"),
    ]);
  });
}

setUpCidr();
setUpCertificates();
setUpMyIp();
