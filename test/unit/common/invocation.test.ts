import { describe, expect, it } from "vitest";
import { invocationFrom } from "../../../src/common/invocation.js";

describe("invocationFrom: what to type to run the bin, from where the person stands", () => {
  // Folders holding a package.json: a project, a clone, npx's cache entry.
  const projects = new Set(["/home/u/app", "/home/u/.npm/_npx/3f2a1b", "/work/claude-a2a"]);
  const exists = (path: string) => projects.has(path.replace(/\/package\.json$/, ""));
  const elsewhere = "/home/u/other-project";
  it.each([
    [
      "a global install (Unix prefix)",
      "/usr/local/lib/node_modules/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "claude-a2a",
    ],
    [
      "a global install (nvm)",
      "/home/u/.nvm/versions/node/v22/lib/node_modules/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "claude-a2a",
    ],
    [
      "a global install (Windows prefix)",
      "C:/Users/u/AppData/Roaming/npm/node_modules/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "claude-a2a",
    ],
    [
      "npm install -g <clone>: the bin on PATH links to the clone",
      "/work/claude-a2a/dist/cli.js",
      elsewhere,
      "/work/claude-a2a/dist/cli.js",
      "claude-a2a",
    ],
    [
      "a clone's dist/, from inside the clone",
      "/work/claude-a2a/dist/cli.js",
      "/work/claude-a2a/docs",
      undefined,
      "npx claude-a2a",
    ],
    [
      "a clone's dist/, from another directory: npx would ask the registry",
      "/work/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "node /work/claude-a2a/dist/cli.js",
    ],
    [
      "a clone's dist/, another claude-a2a on PATH",
      "/work/claude-a2a/dist/cli.js",
      elsewhere,
      "/usr/local/lib/node_modules/claude-a2a/dist/cli.js",
      "node /work/claude-a2a/dist/cli.js",
    ],
    [
      "a project's dependency, from the project",
      "/home/u/app/node_modules/claude-a2a/dist/cli.js",
      "/home/u/app/src",
      undefined,
      "npx claude-a2a",
    ],
    [
      "a project's dependency, from elsewhere",
      "/home/u/app/node_modules/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "node /home/u/app/node_modules/claude-a2a/dist/cli.js",
    ],
    [
      "npx's cache (npx <tarball>)",
      "/home/u/.npm/_npx/3f2a1b/node_modules/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "node /home/u/.npm/_npx/3f2a1b/node_modules/claude-a2a/dist/cli.js",
    ],
    [
      "a path a shell would split",
      "/home/u/my tools/claude-a2a/dist/cli.js",
      elsewhere,
      undefined,
      "node '/home/u/my tools/claude-a2a/dist/cli.js'",
    ],
    [
      "the sources under tsx",
      "/work/claude-a2a/src/cli.ts",
      "/work/claude-a2a",
      undefined,
      "npx claude-a2a",
    ],
  ])("%s", (_what, script, cwd, onPath, expected) => {
    expect(invocationFrom({ script, cwd, onPath, exists })).toBe(expected);
  });
});
