import { z } from "zod";
import { MEDIA_RANGE } from "../common/media-types.js";

/** The building blocks of the config schema: each fails with one message saying what is expected. */

// Case-insensitive by spelling it out: a JSON Schema `pattern` cannot carry the `i` flag.
const SIZE_PATTERN = /^(\d+(?:\.\d+)?)\s*([kKmMgG]?[bB])$/;
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Bytes from a positive integer or a size string such as "10mb" or "512kb" (1 kb = 1024 bytes). */
export function parseByteSize(value: number | string): number {
  if (typeof value === "number") return value;
  const match = SIZE_PATTERN.exec(value.trim());
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? ""];
  if (!match || unit === undefined) throw new RangeError(`not a size: ${JSON.stringify(value)}`);
  return Math.floor(Number(match[1]) * unit);
}

// Each number schema carries one message for every way it can fail, so "abc", 1.5 and 0 all
// read the same: what is expected, then what was found.
export function intBetween(min: number, max: number) {
  const error = `expected an integer between ${min} and ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}
export function positiveInt(error = "expected a positive integer") {
  return z.int({ error }).min(1, { error });
}
export const text = () => z.string({ error: "expected a string" });
export const name = () => text().trim().min(1, { error: "expected a non-empty string" });
export const names = () => z.array(name(), { error: "expected an array of strings" });
export const mediaTypes = () =>
  z.array(
    name().regex(MEDIA_RANGE, {
      error: 'expected a media type such as "text/plain" (or "text/*")',
    }),
    { error: "expected an array of media types" },
  );
export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: "expected an absolute http:// or https:// URL" });
export const minutes = (n: number) => n * 60_000;

const SIZE_ERROR = 'expected a positive number of bytes or a size such as "10mb" or "512kb"';
export const byteSize = z
  .union([positiveInt(SIZE_ERROR), z.string().regex(SIZE_PATTERN, { error: SIZE_ERROR })], {
    error: SIZE_ERROR,
  })
  .transform(parseByteSize);
