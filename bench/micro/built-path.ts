import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Where a module of `src/` sits in the build of `root`, for a checkout from before a move (house,
 * issue 30): the contract left `a2a/contract/` for `contract/`, the card `a2a/contract/card.js`
 * for `a2a/card/agent-card.js`, and the logger moved into `common/`; the task's outlet left
 * `a2a/handler/` for `a2a/channel/` (issue 47); the agent's wiring moved into `app/`. A comparison against an older build then still
 * finds its modules.
 */
const BEFORE: readonly (readonly [string, string])[] = [
  ["a2a/card/agent-card.js", "a2a/contract/card.js"],
  ["contract/", "a2a/contract/"],
  ["common/logging.js", "logging.js"],
  ["a2a/channel/", "a2a/handler/"],
  ["app/", ""],
];

export function builtPath(root: string, path: string): string {
  const now = resolve(root, "dist", path);
  if (existsSync(now)) return now;
  for (const [prefix, before] of BEFORE) {
    if (path.startsWith(prefix)) return resolve(root, "dist", before + path.slice(prefix.length));
  }
  return now;
}
