/**
 * Brings a live element's children in line with a freshly built tree, touching only what
 * differs: a re-render (every animation frame while an answer streams) then costs the browser
 * the style and layout of what changed, not of the whole task, and the focus, the scroll and
 * what the reader opened stay as they were. Nodes `keyed` with the content they stand for (a
 * Markdown block by its source) are equal when their keys are, and are not walked into; they
 * are templates, cloned when they go into the page, so one can be used in every render.
 */
import { h, takeHandlers, type Child } from "./dom.js";

const keys = new WeakMap<Node, string>();

/** `node`, marked as standing for `key`: two nodes with one key have the same content. */
export function keyed<T extends Node>(node: T, key: string): T {
  keys.set(node, key);
  return node;
}

/** The key `node` was marked with, if any. */
export const keyOf = (node: Node): string | undefined => keys.get(node);

/** As `replace(el, …children)` (dom.ts) leaves it, by a patch. */
export function patch(el: Element, ...children: Child[]): void {
  patchChildren(el, [...h("div", {}, ...children).childNodes]);
}

/** Makes `live`'s children those of `next` (nodes of a tree built for this render). */
export function patchChildren(live: Node, next: readonly Node[]): void {
  let cursor = live.firstChild;
  for (const n of next) {
    // One node gone from the middle (a rare case) costs one removal, not a rebuild after it.
    if (
      cursor !== null &&
      !alike(cursor, n) &&
      cursor.nextSibling &&
      alike(cursor.nextSibling, n)
    ) {
      const gone = cursor;
      cursor = cursor.nextSibling;
      live.removeChild(gone);
    }
    if (cursor !== null && alike(cursor, n)) {
      patchNode(cursor, n);
      cursor = cursor.nextSibling;
    } else live.insertBefore(adopt(n), cursor);
  }
  while (cursor !== null) {
    const after = cursor.nextSibling;
    live.removeChild(cursor);
    cursor = after;
  }
}

function alike(live: Node, next: Node): boolean {
  const key = keys.get(next);
  if (key !== undefined || keys.has(live)) return key === keys.get(live);
  if (live.nodeType !== next.nodeType) return false;
  if (!(live instanceof Element && next instanceof Element)) return true;
  return live.tagName === next.tagName && live.id === next.id;
}

function patchNode(live: Node, next: Node): void {
  if (keys.has(next)) return;
  if (!(live instanceof Element && next instanceof Element)) {
    if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
    return;
  }
  // A <details> stays as the reader left it: opened or closed by hand.
  const keep = live.tagName === "DETAILS" ? "open" : undefined;
  for (const { name } of [...live.attributes]) {
    if (name !== keep && !next.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const { name, value } of [...next.attributes]) {
    if (name !== keep && live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  takeHandlers(live, next);
  patchChildren(live, [...next.childNodes]);
}

/** `next` made ready for the page: its keyed templates replaced by copies. */
function adopt(next: Node): Node {
  const key = keys.get(next);
  if (key !== undefined) return keyed(next.cloneNode(true), key);
  for (const child of [...next.childNodes]) {
    const copy = adopt(child);
    if (copy !== child) next.replaceChild(copy, child);
  }
  return next;
}
