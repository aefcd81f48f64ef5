/**
 * Two callers on one `"strict"` workspace with `"shared"` isolation (docs/security.md, "What
 * separates callers"): one tree for every conversation, but what the server keeps per caller is
 * the caller's own. Caller A, hostile, tries to read caller B's attachment in the inbox, and the
 * server's session map, and to plant a file in B's inbox folder, through Bash and the file tools,
 * answering every prompt with yes. The REAL Claude Code runtime, real bubblewrap and the
 * scripted model, through the official A2A client with two bearer tokens.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Part } from "@a2a-js/sdk";
import {
  a2a,
  attempt,
  hostileRules,
  idsOf,
  lastStatus,
  resultsSince,
  streamMessage,
  textPart,
  tokenEntries,
} from "../support/harness/index.js";
import { INBOX_DIR } from "../../src/workspace/inbox.js";

const TOKENS = { a: "token-of-caller-a-9c04", b: "token-of-caller-b-2e6b" };
const B_SECRET = "b-attachment-4f71";
const A_OWN = "a-attachment-0b3e";
const SEARCH = `${B_SECRET.slice(0, -1)}[${B_SECRET.slice(-1)}]`;

/** A message with a text file attached first, then the prompt (what the scripted model reads). */
const withFile = (content: string, prompt: string): Part[] => [
  {
    content: { $case: "raw", value: Buffer.from(content) },
    mediaType: "text/plain",
    filename: "notes.txt",
    metadata: undefined,
  },
  textPart(prompt),
];

/** Every file under the workspace's inbox, as the server's user sees it. */
async function inboxFiles(cwd: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else found.push(path);
    }
  };
  await walk(join(cwd, INBOX_DIR));
  return found;
}

describe("caller A against caller B's attachments (strict, shared isolation)", () => {
  it("A reads neither B's attachment nor the session map, plants nothing in B's inbox folder; each reads its own", async () => {
    const h = await a2a({
      rules: hostileRules,
      config: {
        server: { auth: { tokens: tokenEntries(TOKENS) } },
        claude: { sandbox: "strict", isolation: "shared" },
      },
    });
    const cwd = h.bench.sandbox.cwd;
    const a = await h.connect({ token: TOKENS.a });
    const b = await h.connect({ token: TOKENS.b });

    // B attaches a file; its folder is found from outside.
    const sent = await streamMessage(b, withFile(`${B_SECRET}\n`, "RUN: pwd"));
    expect(lastStatus(sent).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const bIds = idsOf(sent);
    const [bFile = ""] = await inboxFiles(cwd);
    expect(bFile).toContain(bIds.taskId);
    const bFolder = join(bFile, "..", "..");

    // A attaches its own and reads it with Bash: its own folder is readable.
    let from = h.bench.model.requests.length;
    const own = await streamMessage(
      a,
      withFile(`${A_OWN}\n`, `RUN: cat ${INBOX_DIR}/*/*/notes.txt`),
    );
    expect(lastStatus(own).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const ownSeen = resultsSince(h, from);
    expect(ownSeen).toContain(A_OWN);
    const aIds = idsOf(own);

    // A, through Bash: the whole inbox, a search of the server's folder, the session map; then a
    // file planted in B's folder.
    from = h.bench.model.requests.length;
    const bash = await attempt(
      a,
      `RUN: cat ${INBOX_DIR}/*/*/*; ls -R ${INBOX_DIR}; grep -r ${SEARCH} .claude; ` +
        `cat .claude/claude-a2a.db; echo planted > ${bFolder}/planted.txt; ` +
        `echo "plant=$?"; echo end-of-attempt`,
      { contextId: aIds.contextId },
    );
    expect(lastStatus(bash).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const bashSeen = resultsSince(h, from);
    expect(bashSeen).toContain("end-of-attempt");
    // A, through the file tools, knowing the exact path.
    from = h.bench.model.requests.length;
    await attempt(a, `READ: ${bFile}`, { contextId: aIds.contextId });
    await attempt(a, `WRITE: ${bFolder}/planted-by-tool.txt`, { contextId: aIds.contextId });
    const toolSeen = resultsSince(h, from);

    for (const seen of [bashSeen, toolSeen, JSON.stringify(bash)]) {
      expect(seen).not.toContain(B_SECRET);
      expect(seen).not.toContain(bIds.contextId);
    }
    expect(toolSeen).toContain("another caller's attachments");
    // B's side: its attachment unchanged, nothing planted beside it.
    expect(await readFile(bFile, "utf8")).toBe(`${B_SECRET}\n`);
    expect(existsSync(join(bFolder, "planted.txt"))).toBe(false);
    expect(existsSync(join(bFolder, "planted-by-tool.txt"))).toBe(false);
    // B reads its own attachment with Bash in its next task.
    from = h.bench.model.requests.length;
    const next = await attempt(b, `RUN: cat ${INBOX_DIR}/*/*/notes.txt`, {
      contextId: bIds.contextId,
    });
    expect(lastStatus(next).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultsSince(h, from)).toContain(B_SECRET);
  });
});
