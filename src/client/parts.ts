/** File parts, read from disk (Node only); the Node-free parts are in ./message-parts.ts. */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Part } from "@a2a-js/sdk";
import { mediaTypeOfName, OCTET_STREAM } from "../common/media-types.js";

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
