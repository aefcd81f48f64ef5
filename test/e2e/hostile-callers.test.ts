/**
 * Two callers on one `"strict"` workspace with worktree isolation (docs/security.md, "What
 * separates callers"): caller A, hostile, tries to read and change caller B's work through Bash
 * and the file tools, and answers every prompt of its own tasks with yes. The REAL Claude Code
 * runtime, real bubblewrap and the scripted model, through the official A2A client with two
 * bearer tokens. Each attempt asserts what B's side shows afterwards.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import {
  a2a,
  attempt,
  hostileRules,
  idsOf,
  lastStatus,
  resultsSince,
  tokenEntries,
} from "../support/harness/index.js";
import { initRepository } from "../support/harness/git.js";

const TOKENS = { a: "token-of-caller-a-1f0e", b: "token-of-caller-b-77c3" };
const B_SECRET = "b-private-work-3d9a";
const B_OUTPUT = "b-background-output-c418";

const rules = hostileRules;

// Under "shared" isolation the tree is one for all (docs/security.md): only the background
// output, kept per process, is B's own there; B's file is written, and asserted, with worktrees.
describe.each(["worktree", "shared"] as const)(
  "caller A against caller B's work (strict, %s isolation)",
  (isolation) => {
    const trees = isolation === "worktree";
    it("A reads neither B's worktree (with worktrees), nor B's background output, through Bash or the file tools, and changes neither", async () => {
      const h = await a2a({
        rules,
        config: {
          server: { auth: { tokens: tokenEntries(TOKENS) } },
          claude: { sandbox: "strict", isolation },
        },
        beforeStart: (cwd) => initRepository(cwd),
      });
      const a = await h.connect({ token: TOKENS.a });
      const b = await h.connect({ token: TOKENS.b });

      // B's work: a file in its worktree, and a background command's output.
      let from = h.bench.model.requests.length;
      const wrote = await attempt(b, `RUN: echo ${B_SECRET} > b-work.txt && pwd`);
      expect(lastStatus(wrote).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const bTree = /^(\/\S+)$/m.exec(resultsSince(h, from))?.[1] ?? "";
      if (trees) expect(bTree).toContain(".claude/worktrees/");
      const bIds = idsOf(wrote);
      await attempt(b, `BACKGROUND: echo ${B_OUTPUT}`, { contextId: bIds.contextId });
      // The output file lands in B's process's own temp dir: wait until it is there.
      const tmpRoot = join(
        h.bench.sandbox.tmpDir,
        `claude-a2a-processes-${process.getuid?.() ?? 0}`,
      );
      const outputs = async () => {
        const found: string[] = [];
        const walk = async (dir: string): Promise<void> => {
          for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
            const path = join(dir, e.name);
            if (e.isDirectory()) await walk(path);
            else if (e.name.endsWith(".output")) found.push(path);
          }
        };
        await walk(tmpRoot);
        return found;
      };
      await expect
        .poll(async () => {
          for (const f of await outputs()) {
            if ((await readFile(f, "utf8")).includes(B_OUTPUT)) return f;
          }
          return "";
        })
        .not.toBe("");
      const [bOutput] = (
        await Promise.all(
          (await outputs()).map(async (f) =>
            (await readFile(f, "utf8")).includes(B_OUTPUT) ? f : "",
          ),
        )
      ).filter((f) => f !== "");
      const bBefore = await readFile(join(bTree, "b-work.txt"), "utf8");
      const bOutputBefore = await readFile(bOutput!, "utf8");

      // A, through Bash: read both, append to both.
      from = h.bench.model.requests.length;
      const treeAttempt = trees
        ? `cat ${bTree}/b-work.txt; echo injected >> ${bTree}/b-work.txt; `
        : "";
      const bash = await attempt(
        a,
        `RUN: ${treeAttempt}grep -r ${B_OUTPUT.slice(0, -1)}[${B_OUTPUT.slice(-1)}] ${tmpRoot}; ` +
          `echo injected >> ${bOutput}; echo end-of-attempt`,
      );
      expect(lastStatus(bash).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const bashSeen = resultsSince(h, from);
      expect(bashSeen).toContain("end-of-attempt");
      // A, through the file tools.
      from = h.bench.model.requests.length;
      if (trees) await attempt(a, `READ: ${bTree}/b-work.txt`);
      await attempt(a, `READ: ${bOutput}`);
      if (trees) await attempt(a, `WRITE: ${bTree}/b-intruder.txt`);
      const toolSeen = resultsSince(h, from);

      for (const seen of [bashSeen, toolSeen, JSON.stringify(bash)]) {
        if (trees) expect(seen).not.toContain(B_SECRET);
        expect(seen).not.toContain(B_OUTPUT);
      }
      expect(toolSeen).toContain("Refused by claude-a2a");
      expect(await readFile(join(bTree, "b-work.txt"), "utf8")).toBe(bBefore);
      expect(await readFile(bOutput!, "utf8")).toBe(bOutputBefore);
      expect(existsSync(join(bTree, "b-intruder.txt"))).toBe(false);

      // B's next task still completes in its own worktree.
      const next = await attempt(b, "RUN: cat b-work.txt", { contextId: bIds.contextId });
      expect(lastStatus(next).state).toBe(TaskState.TASK_STATE_COMPLETED);
    });
  },
);
