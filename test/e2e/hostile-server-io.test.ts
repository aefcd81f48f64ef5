/**
 * The hostile caller against the server's OWN reads and writes in a workspace (issue 45, item 4):
 * the REAL Claude Code runtime under real bubblewrap (`"strict"`), the scripted model, the
 * official A2A client. A sandboxed command can swap any file or folder of the workspace for a
 * symbolic link at any moment: a file Claude wrote and the server then publishes, the folder the
 * server writes attachments to. The server follows no link (docs/sandbox.md "The server's own
 * file I/O"), logs one warn line and counts the refusal. And a `metadata.sandbox` with prototype
 * keys is an InvalidParams refusal, not an internal error.
 */
import { mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { TaskState, type Artifact, type Message, type Part } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { HookCallbackMatcher, HookInput } from "@anthropic-ai/claude-agent-sdk";
import type { QueryFactory } from "../../src/claude/index.js";
import { FILE_REFUSED } from "../../src/sandbox/denial-log.js";
import { callerInbox, INBOX_DIR } from "../../src/workspace/inbox.js";
import { ANONYMOUS_OWNER } from "../../src/identity/caller.js";
import {
  a2a,
  afterTool,
  getTask,
  listRequest,
  says,
  sendRequest,
  textPart,
  userMessage,
  writes,
  type A2AHarness,
} from "../support/harness/index.js";

const SECRET = "PROBE-PRIVATE-KEY-4d1f9e0b";

/** The server's log as JSON lines, kept for the test. */
function capturedLog() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, parsed };
}

/** Every text and every file's bytes (as UTF-8) of `artifacts`. */
const contentsOf = (artifacts: readonly Artifact[]): string[] =>
  artifacts.flatMap((a) =>
    a.parts.map((p) => {
      const c = p.content;
      if (c?.$case === "raw") return Buffer.from(c.value).toString("utf8");
      return c?.$case === "text" ? c.value : JSON.stringify(c ?? null);
    }),
  );

/** The counter of refusals, as `/metrics` serves it. */
const deniedCount = async (h: A2AHarness, operation: string): Promise<number> => {
  const text = await (await fetch(`${h.server.url}/metrics`)).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`claude_a2a_sandbox_denials_total{kind="${operation}"}`));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
};

/**
 * The query factory with `act` run just before each of the server's PostToolUse hooks, with the
 * hook's input: the moment a background command could swap the file Claude just wrote.
 */
const beforeServerHooks =
  (act: (input: HookInput) => Promise<void>) =>
  (real: QueryFactory): QueryFactory =>
  (params) => {
    const options = params.options ?? {};
    const post = options.hooks?.PostToolUse?.map((m): HookCallbackMatcher => ({
      ...m,
      hooks: m.hooks.map((hook) => async (input, toolUseId, o) => {
        await act(input);
        return hook(input, toolUseId, o);
      }),
    }));
    return real({
      ...params,
      options: { ...options, hooks: { ...options.hooks, ...(post && { PostToolUse: post }) } },
    });
  };

const filePart = (bytes: string, filename: string): Part => ({
  content: { $case: "raw", value: Buffer.from(bytes) },
  mediaType: "text/plain",
  filename,
  metadata: undefined,
});

/** Every file under `dir`, relative to it. */
const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

describe("the server's own file I/O in a workspace (real runtime, real bubblewrap)", () => {
  it("a file Claude wrote, swapped for a link to a secret before the server reads it, is not published", async () => {
    const log = capturedLog();
    let secretFile = "";
    const h = await a2a({
      config: { claude: { sandbox: "strict" } },
      logger: log.logger,
      rules: [writes("WRITE NOTES", "notes.txt", "harmless notes\n"), afterTool(true, "Wrote it.")],
      // The test plays the background command: deterministic, where a real one would race.
      queryFactory: beforeServerHooks(async (input) => {
        if (input.hook_event_name !== "PostToolUse" || input.tool_name !== "Write") return;
        const path = (input.tool_input as { file_path: string }).file_path;
        const target = isAbsolute(path) ? path : join(input.cwd, path);
        await rm(target);
        await symlink(secretFile, target);
      }),
    });
    secretFile = join(h.bench.sandbox.home, ".ssh", "id_probe");
    await mkdir(join(h.bench.sandbox.home, ".ssh"), { recursive: true });
    await writeFile(secretFile, `${SECRET}\n`);

    const task = await h.send("WRITE NOTES");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const stored = await getTask(h.client, task.id);
    for (const t of [task, stored]) {
      expect(t.artifacts.map((a) => a.artifactId)).not.toContain("file:notes.txt");
      expect(contentsOf(t.artifacts).join("\n")).not.toContain(SECRET);
      expect(JSON.stringify(t.history)).not.toContain(SECRET);
    }
    // The task went on: its answer is there.
    expect(contentsOf(stored.artifacts).join("\n")).toContain("Wrote it.");
    // One warn line, naming the kind and the path, never the contents.
    const refusals = log.parsed().filter((l) => l.msg === FILE_REFUSED);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ level: 40, kind: "link", path: "notes.txt" });
    expect(log.lines.filter((l) => l.includes(SECRET))).toEqual([]);
    expect(await deniedCount(h, "file-link")).toBe(1);
  });

  it("a link planted where attachments go: the message fails clearly, nothing is written outside, the next message works", async () => {
    const log = capturedLog();
    const h = await a2a({
      config: { claude: { sandbox: "strict" } },
      logger: log.logger,
      rules: [says("Read the attachment", "Read it."), says("Just talk", "Talking.")],
    });
    const cwd = h.bench.sandbox.cwd;
    const landing = join(h.bench.sandbox.home, "landing");
    await mkdir(landing);
    await mkdir(join(cwd, ".claude"), { recursive: true });
    await rm(join(cwd, INBOX_DIR), { recursive: true, force: true });
    await symlink(landing, join(cwd, INBOX_DIR));
    const attachment = [
      textPart("Read the attachment"),
      filePart("echo caller-chosen content", "payload.sh"),
    ];

    const refused = await h.send(attachment);
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const said = contentsOf(
      refused.status?.message ? [messageAsArtifact(refused.status.message)] : [],
    );
    expect(said.join("\n")).toContain("Attached files could not be saved");
    expect(said.join("\n")).toContain(`${INBOX_DIR} is a symbolic link`);
    expect(await filesUnder(landing)).toEqual([]);
    expect(log.parsed().filter((l) => l.msg === FILE_REFUSED)).toEqual([
      expect.objectContaining({ level: 40, kind: "link", path: INBOX_DIR }),
    ]);
    expect(await deniedCount(h, "file-link")).toBe(1);

    // The conversation is not stuck: a message without files works with the link still there,
    // and once it is gone, attachments land in the real inbox again.
    const talk = await h.send("Just talk", { contextId: refused.contextId });
    expect(talk.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await rm(join(cwd, INBOX_DIR));
    const again = await h.send(attachment, { contextId: refused.contextId });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const caller = callerInbox(ANONYMOUS_OWNER).slice(INBOX_DIR.length + 1);
    expect(await filesUnder(join(cwd, INBOX_DIR))).toEqual([join(caller, again.id, "payload.sh")]);
    expect(await filesUnder(landing)).toEqual([]);
  });

  it.each([
    ['{"__proto__": {"polluted": ["a"]}}', "__proto__ would widen"],
    ['{"constructor": {"prototype": ["a"]}}', "constructor would widen"],
    ['{"network": {"__proto__": ["a.example"]}}', "network.__proto__ would widen"],
  ])("metadata.sandbox %s is InvalidParams before any task exists", async (sandbox, reason) => {
    const h = await a2a({ config: { claude: { sandbox: "strict" } } });
    const message: Message = {
      ...userMessage("Hello"),
      contextId: crypto.randomUUID(),
      // As JSON.parse makes them: own keys, which an object literal would not give.
      metadata: JSON.parse(`{"sandbox": ${sandbox}}`) as Message["metadata"],
    };
    const sent = h.client.sendMessage(sendRequest(message));
    await expect(sent).rejects.toBeInstanceOf(RequestMalformedError);
    await expect(sent).rejects.toThrow(reason);
    expect((await h.client.listTasks(listRequest(message.contextId))).tasks).toEqual([]);
    expect(h.spawns()).toBe(0);
  });
});

/** A status message's parts, read like an artifact's. */
const messageAsArtifact = (m: Message): Artifact => ({
  artifactId: "status",
  name: "",
  description: "",
  parts: m.parts,
  metadata: undefined,
  extensions: [],
});
