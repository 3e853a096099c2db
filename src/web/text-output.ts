/**
 * A text the CLI would print, as the page gives it (issue 34.7): in a read-only box to read and
 * select, with a Copy button (the clipboard) and a Download button (a file with exactly these
 * bytes, made in the browser from a Blob: nothing is sent or stored).
 */
import { h } from "./dom.ts";

/** A file to download: its name and its bytes (a text is written as UTF-8). */
export interface Download {
  readonly fileName: string;
  readonly bytes?: Uint8Array;
}

/** Saves `data` as `fileName` through a temporary link to a Blob (revoked once clicked). */
function save(data: Uint8Array | string, fileName: string): void {
  const parts: BlobPart[] = [typeof data === "string" ? data : new Uint8Array(data)];
  const url = URL.createObjectURL(new Blob(parts, { type: "text/plain;charset=utf-8" }));
  const link = h("a", { href: url, download: fileName, hidden: "" });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the URL is no longer needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The box, its label above it, and its buttons. `text` is shown as it is (a final line feed
 * included); `download.bytes`, when given, is what the file holds (a log's own bytes), else the
 * text. The box is as tall as the text, up to 14 lines; it scrolls inside, never the page.
 */
export function textOutput(text: string, label: string, download: Download): HTMLElement {
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const box = h("textarea", {
    class: "mono plain-list",
    readonly: "",
    rows: String(Math.min(14, Math.max(2, lines))),
    "aria-label": label,
    spellcheck: "false",
    wrap: "off",
  }) as HTMLTextAreaElement;
  box.value = text;
  const copy = h("button", { type: "button", class: "copy" }, "Copy") as HTMLButtonElement;
  copy.setAttribute("aria-label", `Copy: ${label}`);
  copy.addEventListener("click", () => {
    box.select();
    void navigator.clipboard?.writeText(text).then(
      () => {
        copy.textContent = "Copied";
      },
      () => undefined,
    );
  });
  const save_ = h("button", { type: "button", class: "copy" }, `Download ${download.fileName}`);
  save_.setAttribute("aria-label", `Download ${download.fileName}: ${label}`);
  save_.addEventListener("click", () => save(download.bytes ?? text, download.fileName));
  return h(
    "div",
    { class: "plain" },
    h("p", { class: "hint" }, label),
    box,
    h("div", { class: "buttons" }, copy, save_),
  );
}
