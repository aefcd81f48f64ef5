import { extname } from "node:path";

/**
 * Media types the server knows: what it accepts in a message and what it produces. Facts about
 * the server, shared by the config defaults, the agent card, the input check and file artifacts.
 */

/** Images Claude is shown as images (the Messages API's image block types). */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** By file extension (lowercase, with the dot). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".py": "text/x-python",
  ".json": "application/json",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".ipynb": "application/x-ipynb+json",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".zip": "application/zip",
};

/** The media type of a file name's extension, if it is one we know. */
export function mediaTypeOfName(name: string): string | undefined {
  return BY_EXTENSION[extname(name).toLowerCase()];
}

export const OCTET_STREAM = "application/octet-stream";

/**
 * What the server accepts in a message by default: text parts (`text/plain`), data parts
 * (`application/json`), images (saved to the inbox AND shown to Claude as images), and documents
 * saved to the inbox that Claude reads with its Read tool (text formats, PDF, notebooks).
 */
export const DEFAULT_INPUT_MODES: readonly string[] = [
  "text/plain",
  "application/json",
  ...IMAGE_MEDIA_TYPES,
  "text/markdown",
  "text/csv",
  "text/html",
  "text/css",
  "text/javascript",
  "text/x-typescript",
  "text/x-python",
  "application/xml",
  "application/yaml",
  "application/x-ipynb+json",
  "application/pdf",
];

/**
 * What the server produces: text (every status message and Claude's answer), JSON data parts
 * (input-required prompts), and file artifacts, typed by extension (`application/octet-stream`
 * for a binary file of unknown type).
 */
export const DEFAULT_OUTPUT_MODES: readonly string[] = [
  ...new Set(["text/plain", "application/json", ...Object.values(BY_EXTENSION), OCTET_STREAM]),
];

/**
 * `type/subtype` (RFC 6838 restricted names), or `type/*`, or `*\/*`. Case-insensitive by spelling
 * it out, so that it can be a JSON Schema `pattern` too.
 */
export const MEDIA_RANGE =
  /^(\*\/\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))$/;

/** `Text/Plain; charset=utf-8` → `text/plain`. */
export const essence = (mediaType: string) => mediaType.split(";", 1)[0]!.trim().toLowerCase();

/** Whether `mediaType` is covered by `mode` (a media type, `type/*` or `*\/*`). */
export function mediaTypeMatches(mediaType: string, mode: string): boolean {
  const type = essence(mediaType);
  const range = essence(mode);
  if (range === "*/*" || range === type) return true;
  return range.endsWith("/*") && type.startsWith(range.slice(0, -1));
}

export const matchesAny = (mediaType: string, modes: readonly string[]) =>
  modes.some((mode) => mediaTypeMatches(mediaType, mode));
