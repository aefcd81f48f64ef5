/**
 * Rewind and fork under worktree isolation (docs/control.md): the workspace as a git repository
 * with one commit, the folder the runtime works in as the model's request says it, and the
 * scripted rules under which "Write fN" writes fN.txt there. For the tests that rewind or fork,
 * whichever client sends the control.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply, text, toolUse, type ParsedRequest, type Rule } from "./model.js";

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
  });

/** The workspace as a repository: `base.txt`, one commit on `main` (a `beforeStart`). */
export async function initRepository(cwd: string): Promise<void> {
  git(cwd, "init", "-q", "-b", "main");
  await writeFile(join(cwd, "base.txt"), "base\n");
  git(cwd, "add", ".");
  git(cwd, "commit", "-q", "-m", "the base");
}

/** The folder the runtime works in, as it last told the model (a fork's history names its source's). */
export function workingDir(req: ParsedRequest): string {
  // A resumed process in another folder says "<new> (was <old>)".
  const pattern = /Primary working directory: (.+?)(?: \(was |\\n|")/g;
  const all = [...JSON.stringify(req.body).matchAll(pattern)];
  const found = all.at(-1)?.[1];
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
