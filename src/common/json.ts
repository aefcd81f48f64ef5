/**
 * Guards for values parsed from JSON that no type describes yet (request bodies, metadata, tool
 * inputs). Leaf module: anything may import it, it imports nothing of ours.
 */
export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export const isRecord = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const asRecord = (v: unknown): JsonObject | undefined => (isRecord(v) ? v : undefined);

export const asString = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
