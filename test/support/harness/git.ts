/**
 * A git repository as the worktree, spare, rewind and fork tests need it: git run with a test
 * identity, a repository with one commit, where the runtime says it works (its system prompt),
 * and the scripted rules under which "Write fN" writes fN.txt there.
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { exists } from "../a2a/workspaces.js";
import type { TestBench } from "../bench.js";
import { reply, text, toolUse, type ParsedRequest, type Rule } from "./model.js";
import { requestOf } from "./model-requests.js";

/** `git <args>` in `cwd` as a test identity; its standard output. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
  });

/** `cwd` as a repository on `main` with one commit of `files` (name → content). */
export async function initRepository(
  cwd: string,
  files: Record<string, string> = { "base.txt": "base\n" },
): Promise<void> {
  git(cwd, "init", "-q", "-b", "main");
  for (const [name, content] of Object.entries(files)) await writeFile(join(cwd, name), content);
  git(cwd, "add", ".");
  git(cwd, "commit", "-q", "-m", "the base");
}

/**
 * The folder the runtime works in, as it last told the model ("Primary working directory: …"; a
 * process resumed in another folder says "<new> (was <old>)", and a fork's history names its
 * source's first).
 */
export function workingDir(req: ParsedRequest): string {
  const pattern = /Primary working directory: (.+?)(?: \(was |\\n|")/g;
  const found = [...JSON.stringify(req.body).matchAll(pattern)].at(-1)?.[1];
  if (found === undefined) throw new Error("no working directory in the system prompt");
  return found.trim();
}

/** "Write fN" writes fN.txt in the folder the runtime works in; anything else is answered. */
export const writeFileRules: readonly Rule[] = [
  {
    name: "write",
    match: { lastUserText: /Write (f\d)/, toolResult: false },
    reply: (req: ParsedRequest) => {
      const name = /Write (f\d)/.exec(req.lastUserText)?.[1] ?? "f0";
      return reply(
        toolUse("Write", { file_path: join(workingDir(req), `${name}.txt`), content: `${name}\n` }),
      );
    },
  },
  { name: "written", match: { toolResult: true }, reply: reply(text("Written.")) },
  { name: "anything else", match: {}, reply: reply(text("Noted.")) },
];

/**
 * After "Write f1", "Write f2", "Write f3", a rewind to before f2's task, then "Write f4": f1
 * stays, f2 and f3 are gone, f4 is written, and Claude knew f1's task alone.
 */
export async function expectRewoundToF1(h: { readonly bench: TestBench }, cwd: string) {
  expect(await exists(join(cwd, "f1.txt"))).toBe(true);
  expect(await exists(join(cwd, "f2.txt"))).toBe(false);
  expect(await exists(join(cwd, "f3.txt"))).toBe(false);
  expect(await readFile(join(cwd, "f4.txt"), "utf8")).toBe("f4\n");
  const seen = requestOf(h, "Write f4");
  expect(seen).toContain("Write f1");
  expect(seen).not.toContain("Write f2");
  expect(seen).not.toContain("Write f3");
}
