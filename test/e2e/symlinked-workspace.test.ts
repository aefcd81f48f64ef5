/**
 * A workspace served through a symlink (macOS's /tmp and /var/folders, a symlinked checkout):
 * the runtime works in its real path, and the server compares real paths on both sides, so a
 * Write inside gives the same relative artifact id (`file:load_10.txt`, never the absolute
 * path), an attachment's inbox path is read inside the workspace without a prompt, and a file
 * outside stays absolute. The same under `claude.isolation: "worktree"`, where the runtime works
 * in the conversation's worktree: ids relative to that worktree, its inbox inside it.
 */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { connect } from "../../src/client/connect.js";
import { resolveConfig } from "../../src/config/load.js";
import { rawPart, textPart } from "../../src/contract/messages.js";
import {
  afterTool,
  bench,
  freePort,
  reply,
  sendForTask,
  served,
  TEST_MODEL,
  toolUse,
  userMessage,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";
import type { WorktreeMetadata } from "../../src/contract/worktree.js";

/** The inbox path the server gave Claude for the attachment, relative to where it works. */
const inboxPath = (req: ParsedRequest): string =>
  /\.claude\/a2a-inbox\/\S+?\.txt/.exec(req.lastUserText)?.[0] ?? "?";

/**
 * The scripted turn of both tests: read the attachment at its inbox path, then Write two files
 * inside where the runtime works (`dir`: a real path, one absolute, one relative) and one outside.
 */
const loadRules = (dir: (req: ParsedRequest) => string, outside: string): Rule[] => [
  {
    name: "read-attachment",
    match: { lastUserText: "Write the load", toolResult: false },
    // The path the server gave Claude for the attachment, as the runtime reads it.
    reply: (req) => reply(toolUse("Read", { file_path: join(dir(req), inboxPath(req)) })),
  },
  {
    name: "write-both",
    match: { toolResult: /some notes/ },
    reply: (req) =>
      reply([
        // The runtime reports real paths: one inside, one relative, one outside.
        toolUse("Write", { file_path: join(dir(req), "load_10.txt"), content: "10\n" }),
        toolUse("Write", { file_path: "sub/load_11.txt", content: "11\n" }),
      ]),
  },
  {
    name: "write-outside",
    match: { toolResult: /load_11/ },
    reply: reply(toolUse("Write", { file_path: join(outside, "x.txt"), content: "x\n" })),
  },
  afterTool(true, "Written.", "done"),
];

/** The config of a workspace served through `link`, with `outside` allowed (its id is tested). */
const configAt = async (link: string, outside: string, isolation?: "worktree") =>
  resolveConfig(
    {
      claude: {
        model: TEST_MODEL,
        settingSources: [],
        permissionMode: "acceptEdits",
        ...(isolation && { isolation }),
        additionalDirectories: [outside],
      },
    },
    { file: "<test>", startDir: link, overrides: { port: await freePort() } },
  );

/** Sends the load with its attachment; returns the task and its file artifacts as [id, path]. */
async function sendLoad(url: string) {
  const task = await sendForTask(
    await connect(url),
    userMessage([
      textPart("Write the load"),
      rawPart(Buffer.from("some notes\n"), "text/plain", "notes.txt"),
    ]),
  );
  const files = task.artifacts
    .filter((a) => a.metadata?.kind === "file")
    .map((a) => [a.artifactId, String(a.metadata?.path)]);
  return { task, files };
}

/** The files of `loadRules`, by their ids and paths. */
const expectedFiles = (outside: string) => [
  ["file:load_10.txt", "load_10.txt"],
  ["file:sub/load_11.txt", "sub/load_11.txt"],
  [`file:${join(outside, "x.txt")}`, join(outside, "x.txt")],
];

describe("a workspace served through a symlink", () => {
  it("gives relative artifact ids, reads its inbox inside the workspace, keeps outside absolute", async () => {
    const b = await bench();
    const real = b.sandbox.cwd;
    const outside = join(b.sandbox.root, "outside");
    await mkdir(outside);
    b.model.setRules(loadRules(() => real, outside));
    const link = join(b.sandbox.root, "link");
    await symlink(real, link, "dir");
    await mkdir(join(real, "sub"));
    await writeFile(join(real, "README.md"), "# ws\n");
    const config = await configAt(link, outside);
    expect(config.claude.cwd).toBe(link);
    const server = await served(b, config);
    const { task, files } = await sendLoad(server.url);
    // No permission asked: the inbox and the workspace's files are inside.
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(files).toEqual(expectedFiles(outside));
    expect(b.model.unmatched).toEqual([]);
  });

  it('under "worktree" isolation: ids relative to the conversation\'s worktree, its inbox read inside it, outside absolute', async () => {
    const b = await bench();
    const real = b.sandbox.cwd;
    const outside = join(b.sandbox.root, "outside");
    await mkdir(outside);
    await mkdir(join(real, "sub"));
    await initRepository(real, { "README.md": "# ws\n", "sub/keep.txt": "keep\n" });
    const head = git(real, "rev-parse", "HEAD").trim();
    const worktrees = new Set<string>();
    // The runtime works in the worktree (a real path): the inbox is inside it.
    const inWorktree = (req: ParsedRequest) => {
      worktrees.add(workingDir(req));
      return workingDir(req);
    };
    b.model.setRules(loadRules(inWorktree, outside));
    const link = join(b.sandbox.root, "link");
    await symlink(real, link, "dir");
    const config = await configAt(link, outside, "worktree");
    expect(config.claude.cwd).toBe(link);
    const server = await served(b, config);
    // After the start: what the server itself keeps in the workspace is there already.
    const status = git(real, "status", "--porcelain", "--untracked-files=all");
    const { task, files } = await sendLoad(server.url);
    // No permission asked: the inbox and the worktree's files are inside.
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [worktree] = [...worktrees];
    expect(worktrees.size).toBe(1);
    // The worktree is a real path, under the workspace's real path, not through the link.
    expect(worktree?.startsWith(`${real}/`)).toBe(true);
    expect(files).toEqual(expectedFiles(outside));
    // The commit holds the two files of the worktree, by the same relative paths; the checkout
    // served through the link is untouched.
    const committed = task.metadata?.worktree as WorktreeMetadata | undefined;
    expect(committed?.files.map((f) => f.path).sort()).toEqual(["load_10.txt", "sub/load_11.txt"]);
    expect(await readFile(join(worktree ?? "?", "load_10.txt"), "utf8")).toBe("10\n");
    expect(git(real, "rev-parse", "HEAD").trim()).toBe(head);
    expect(git(real, "status", "--porcelain", "--untracked-files=all")).toBe(status);
    expect(b.model.unmatched).toEqual([]);
  });
});
