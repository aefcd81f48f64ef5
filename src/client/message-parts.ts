/**
 * The message parts a client sends and reads, shared by the terminal client and the browser
 * console (console/, bundled by esbuild): Node-free, so it imports nothing from `node:*` (the
 * file parts, which read the disk, stay in ./parts.ts). `eslint.config.js` holds it to that.
 */
import { Role, type Message, type Part } from "@a2a-js/sdk";

/**
 * A text part. `text/plain` spelled out, as the server's own text parts are
 * (src/contract/messages.ts); docs/bindings.md reads an empty `mediaType` on a text part as
 * `text/plain` too, so the server treats both alike.
 */
export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  mediaType: "text/plain",
  filename: "",
  metadata: undefined,
});

export const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

/**
 * The text of a message's (or artifact's) text parts, joined by `separator`: none for the
 * terminal, which prints them as they came; the console joins a message's parts by newlines.
 */
export const partsText = (parts: readonly Part[] | undefined, separator = ""): string =>
  (parts ?? [])
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join(separator);

/** The first data part's value, if any. */
export function firstData(parts: readonly Part[] | undefined): unknown {
  const found = (parts ?? []).find((p) => p.content?.$case === "data")?.content;
  return found?.$case === "data" ? found.value : undefined;
}

/**
 * A random UUID. `crypto.randomUUID` exists in Node and in a browser's secure contexts (https,
 * loopback) only; the console may be served over plain http on another host, so the fallback
 * builds a version-4 UUID from `crypto.getRandomValues`.
 */
export function newId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A user message on a task (an answer) or into a conversation (`contextId`, maybe new). */
export function userMessage(parts: Part[], ids: { taskId?: string; contextId?: string }): Message {
  return {
    messageId: newId(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
