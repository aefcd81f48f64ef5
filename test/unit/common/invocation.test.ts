import { describe, expect, it } from "vitest";
import { invocationOf } from "../../../src/common/invocation.js";

describe("invocationOf: what to type to run the bin, from where the script lies", () => {
  // Folders holding a package.json: a project, a clone, npx's cache entry.
  const projects = new Set(["/home/u/app", "/home/u/.npm/_npx/3f2a1b", "/work/claude-a2a"]);
  const exists = (path: string) => projects.has(path.replace(/\/package\.json$/, ""));
  it.each([
    [
      "a global install (Unix prefix)",
      "/usr/local/lib/node_modules/claude-a2a/dist/cli.js",
      "claude-a2a",
    ],
    [
      "a global install (nvm)",
      "/home/u/.nvm/versions/node/v22/lib/node_modules/claude-a2a/dist/cli.js",
      "claude-a2a",
    ],
    [
      "a global install (Windows prefix)",
      "C:/Users/u/AppData/Roaming/npm/node_modules/claude-a2a/dist/cli.js",
      "claude-a2a",
    ],
    ["a clone's dist/ (npm start)", "/work/claude-a2a/dist/cli.js", "npx claude-a2a"],
    ["a project's dependency", "/home/u/app/node_modules/claude-a2a/dist/cli.js", "npx claude-a2a"],
    [
      "npx's cache",
      "/home/u/.npm/_npx/3f2a1b/node_modules/claude-a2a/dist/cli.js",
      "npx claude-a2a",
    ],
    ["the sources under tsx", "/work/claude-a2a/src/cli.ts", "npx claude-a2a"],
  ])("%s", (_what, script, expected) => {
    expect(invocationOf(script, exists)).toBe(expected);
  });
});
