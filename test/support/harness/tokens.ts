/** Bearer tokens as the server's config holds them (`server.auth.tokens`): a name, a SHA-256. */
import { createHash } from "node:crypto";

export const sha256 = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The config entries of `{ name: token }`. */
export const tokenEntries = (tokens: Record<string, string>) =>
  Object.entries(tokens).map(([name, token]) => ({ name, sha256: sha256(token) }));
