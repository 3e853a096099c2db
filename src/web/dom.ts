/**
 * The page's DOM helpers: elements built with attributes and text children (never innerHTML:
 * every name shown is data), regions replaced, buttons marked busy, term–value lists.
 */

export type Child = Node | string | null | undefined | false;

/** `h("p", { class: "x" }, "text", child)`: an element with attributes and children. */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing`);
  return element as T;
}

export function show(region: HTMLElement, ...content: Child[]): void {
  region.replaceChildren();
  for (const child of content) if (child) region.append(child);
}

/** Runs `work` with the form's button marked busy. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

export function summary(rows: [string, string][]): HTMLElement {
  const list = h("dl", { class: "summary" });
  for (const [term, value] of rows) list.append(h("dt", {}, term), h("dd", {}, value));
  return list;
}
