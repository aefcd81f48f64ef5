import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { Role, type Message, type Part } from "@a2a-js/sdk";
import { mediaTypeOfName, OCTET_STREAM } from "../media-types.js";

export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  mediaType: "",
  filename: "",
  metadata: undefined,
});

export const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

/** The media type a file is sent with, by extension (`application/octet-stream` when unknown). */
export const mediaTypeOf = (path: string): string => mediaTypeOfName(path) ?? OCTET_STREAM;

/** A file as a `raw` part: bytes, file name and media type. */
export async function filePart(path: string): Promise<Part> {
  return {
    content: { $case: "raw", value: await readFile(path) },
    mediaType: mediaTypeOf(path),
    filename: basename(path),
    metadata: undefined,
  };
}

export function userMessage(parts: Part[], ids: { taskId?: string; contextId?: string }): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text of a message's (or artifact's) text parts, joined. */
export const partsText = (parts: readonly Part[] | undefined): string =>
  (parts ?? []).flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])).join("");

/** The first data part's value, if any. */
export function firstData(parts: readonly Part[] | undefined): unknown {
  const found = (parts ?? []).find((p) => p.content?.$case === "data")?.content;
  return found?.$case === "data" ? found.value : undefined;
}
