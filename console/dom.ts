/**
 * A small element builder: `h("button", { class: "x", onclick }, "Allow")`. Text is always set
 * as text (never as HTML), so nothing a task carries can inject markup into the page.
 */

export type Child = Node | string | false | null | undefined | readonly Child[];
type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

// Each element's handlers, by event type, read when the event comes: an element kept by a patch
// (dom-patch.ts) takes the handlers of the one built for the render, and their closures. A type
// in the map has its listener on the element; undefined: it does nothing now.
const handlers = new WeakMap<Element, Map<string, EventListener | undefined>>();

function listen(el: Element, type: string, fn: EventListener | undefined): void {
  let map = handlers.get(el);
  if (map === undefined) handlers.set(el, (map = new Map<string, EventListener | undefined>()));
  if (!map.has(type)) el.addEventListener(type, (e) => handlers.get(el)?.get(type)?.(e));
  map.set(type, fn);
}

/** `live` answers events with `next`'s handlers from now on (and not with its own). */
export function takeHandlers(live: Element, next: Element): void {
  const mine = handlers.get(live);
  const theirs = handlers.get(next);
  mine?.forEach((_, type) => {
    if (!theirs?.has(type)) mine.set(type, undefined);
  });
  theirs?.forEach((fn, type) => listen(live, type, fn));
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") listen(el, key.replace(/^on/, ""), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child as readonly Child[]);
    else
      el.appendChild(typeof child === "string" ? document.createTextNode(child) : (child as Node));
  }
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el as T;
};
