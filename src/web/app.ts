/**
 * The web page's script: plain DOM, calling the API through the typed client (same origin).
 * Every result is rendered with textContent (never innerHTML): certificate names are data.
 * Nothing is stored: no cookies, no localStorage, no sessionStorage.
 */

import { WEBCRYPTO_PUBLIC_KEYS } from "../adapters/keys-webcrypto/webcrypto-public-keys.ts";
import {
  deployableByFix,
  errorsLeftAfterFix,
  missingIntermediates,
  missingIntermediateWarning,
  privateKeyRefusal,
  withChainRoots,
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
  type PublicIpDatabasesResultType,
  type PublicIpResultType,
} from "../client/index.ts";
import { locateLine } from "../client/text-location.ts";
import { type ChainClient, refusingClients } from "../local/client-names.ts";
import { setAsidePrivateKeys } from "../local/key-material.ts";
import { convertPastedPkcs7, loadCertificateFiles } from "./certificate-inputs.ts";
import { setUpCidrTools } from "./cidr-tools.ts";
import { busy, byId, type Child, h, show, summary } from "./dom.ts";
import { setUpKeyMatch } from "./key-panel.ts";
import { outcome, problem } from "./problems.ts";
import { retryingOnceWhenOverloaded } from "./retry-overloaded.ts";

/** The page's client: a request shed by a busy server is asked once more after its Retry-After. */
const api = createClient({ baseUrl: "", fetch: retryingOnceWhenOverloaded((request) => fetch(request)) });

/** A position in the bundle, written `#0` so that it never reads as a count. */
function position(index: number): string {
  return `#${index}`;
}

/** `certificate #1`, `certificates #0, #2`. */
function certificatePositions(indexes: readonly number[]): string {
  return `${indexes.length === 1 ? "certificate" : "certificates"} ${indexes.map(position).join(", ")}`;
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
        finding.certificateIndexes.length ? ` — ${certificatePositions(finding.certificateIndexes)}` : "",
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

/**
 * The bundle's findings, summary and certificates, read with the roots the chain used (CONTRACT
 * §9.6): when the chain check (which, unlike the bundle endpoint, knows the user's own root)
 * reached an anchor, the bundle's "looks incomplete" guess is not repeated against it, and a
 * missing issuer that is the user's own root is said to be one.
 */
function certificateView(
  value: CertificateBundleResultType,
  chain: CertificateChainResultType | null,
): Child[] {
  const chainComplete = chain?.status === "complete";
  const findings = withChainRoots(value.findings, chain);
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
        ...["Position", "Line", "Subject", "Issuer", "Valid until", "CA", "Self-signature"].map((title) =>
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
          h("td", {}, position(c.index)),
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
  const warnings = (chainComplete ? [] : missingIntermediates(findings)).map((finding) =>
    h(
      "p",
      { class: "warning", role: "status" },
      h("strong", {}, "Warning: "),
      missingIntermediateWarning(finding),
    ),
  );
  return [
    ...warnings,
    findingsView(findings),
    summary([
      ["Possible leaves", value.leafIndexes.length ? value.leafIndexes.map(position).join(", ") : "none"],
      [
        "Leaf",
        value.selectedLeafIndex === null ? "none chosen" : `certificate ${position(value.selectedLeafIndex)}`,
      ],
      ["Hostname", hostname],
    ]),
    // Seven columns do not fit a phone's width: the table scrolls in its own focusable region.
    h(
      "div",
      {
        class: "table-scroll",
        tabindex: "0",
        role: "region",
        "aria-label": `${value.certificates.length} certificates`,
      },
      certificates,
    ),
  ];
}

const VERDICTS: Record<CertificateChainResultType["status"], string> = {
  complete: "Complete: the chain reaches a trust anchor.",
  incomplete: "Incomplete: an issuer is missing.",
  ambiguous: "Several possible server certificates: give the leaf position or the hostname.",
  "no-leaf": "No server certificate in the bundle.",
};

/** Which clients' rules were applied (CONTRACT §8.1 `profile`). */
const PROFILES = {
  webpki: "Judged by the rules for publicly trusted certificates (its root is a shipped root).",
  private: "Judged by the rules for a private PKI (your own root, or a self-signed root in the bundle).",
} as const;

/** `Safari and macOS refuse this: `, in bold, before a problem's observation; nothing when no client is named. */
function refusal(clients: readonly ChainClient[]): Child {
  const names = refusingClients(clients);
  return names !== null && h("strong", { class: "clients" }, `${names}: `);
}

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
    value.profile !== "unknown" && h("p", { class: "hint", id: "chain-profile" }, PROFILES[value.profile]),
  );
  const problems = h("ul", { id: "chain-problems" });
  for (const problem of value.problems) {
    problems.append(
      h(
        "li",
        { class: `severity-${problem.severity}` },
        h("strong", {}, `${problem.code} (${problem.severity})`),
        h("p", {}, refusal(problem.clients), problem.observed),
        h("p", {}, `Next: ${problem.nextAction}`),
      ),
    );
  }
  panel.append(value.problems.length ? problems : h("p", { class: "ok" }, "No problems."));
  // Only a chain `nettools chain --fix` would write with exit 0 is offered for deployment
  // (CONTRACT §7.1, §9.6): an incomplete one breaks clients without the missing issuer cached,
  // and one with an error left (expired, refused by a client) is refused by the clients named.
  if (value.status === "incomplete" && value.anchor !== null) panel.append(missingIssuerView(value.anchor));
  if (!deployableByFix(value)) {
    const left = errorsLeftAfterFix(value);
    if (value.status === "complete" && left.length > 0)
      panel.append(
        h(
          "p",
          { class: "hint", id: "chain-not-offered" },
          `Not offered for deployment: ${left.length === 1 ? "1 error stays" : `${left.length} errors stay`} in the corrected chain (${[...new Set(left.map((problem) => problem.code))].join(", ")}), so nettools chain --fix would exit 1. Fix ${left.length === 1 ? "it" : "them"} first.`,
        ),
      );
    return panel;
  }
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

function setUpCertificates(): void {
  const form = byId<HTMLFormElement>("cert-form");
  const textarea = byId<HTMLTextAreaElement>("cert-pem");
  const region = byId("cert-result");
  const fileInput = byId<HTMLInputElement>("cert-file");

  const notes = byId("cert-file-notes");
  // A PKCS#12 file's password: read here, when a file is loaded, and never sent (CONTRACT §10.3).
  const password = byId<HTMLInputElement>("cert-file-password");
  const load = (files: FileList | null | undefined, target: HTMLTextAreaElement) =>
    loadCertificateFiles(files, target, notes, () => password.value);
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
    const at = byId<HTMLInputElement>("cert-at").value.trim();
    if (at !== "") {
      request.at = at;
      chainRequest.at = at;
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
        ...certificateView(result.value, chained.ok ? chained.value : null),
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

/**
 * The network facts of a public-ip answer (CONTRACT §8.10) in one line: AS number and name,
 * country, the databases they came from, and DB-IP's credit as a link when its data is shown.
 */
function networkLine(value: PublicIpResultType, databases: ApiResult<PublicIpDatabasesResultType>): Child {
  const facts = [
    value.asn === undefined ? null : `AS${value.asn}`,
    value.asnOrg ?? null,
    value.country === undefined ? null : `country ${value.country}`,
  ].filter((fact) => fact !== null);
  if (facts.length === 0) return null;
  const sources = databases.ok
    ? databases.value.databases.map(
        (database) => `${database.databaseType}, built ${database.buildDate.slice(0, 10)}`,
      )
    : [];
  return h(
    "p",
    { class: "hint", id: "myip-network" },
    `Network: ${facts.join(" · ")}`,
    sources.length > 0 && ` (from ${sources.join("; ")})`,
    value.attribution !== undefined && ". ",
    value.attribution !== undefined && h("a", { href: "https://db-ip.com" }, "IP Geolocation by DB-IP"),
  );
}

function setUpMyIp(): void {
  const button = byId<HTMLButtonElement>("myip-button");
  const region = byId("myip-result");
  button.addEventListener("click", async () => {
    const [result, databases] = await busy(button, () =>
      Promise.all([api.publicIp(), api.publicIpDatabases()]),
    );
    show(
      region,
      ...outcome(result, (value) => [
        h(
          "p",
          {},
          "This server sees your connection coming from ",
          h("span", { class: "ip" }, value.ip),
          ".",
        ),
        h("p", { class: "hint" }, value.family === "ipv4" ? "IPv4" : "IPv6"),
        networkLine(value, databases),
      ]),
    );
    region.focus();
  });
}

setUpCidrTools(api);
setUpCertificates();
setUpKeyMatch(api, WEBCRYPTO_PUBLIC_KEYS);
setUpMyIp();
