/**
 * A workspace served through a symlink (macOS's /tmp and /var/folders, a symlinked checkout):
 * the runtime works in its real path, and the server compares real paths on both sides, so a
 * Write inside gives the same relative artifact id (`file:load_10.txt`, never the absolute
 * path), an attachment's inbox path is read inside the workspace without a prompt, and a file
 * outside stays absolute.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
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
} from "../support/harness/index.js";

describe("a workspace served through a symlink", () => {
  it("gives relative artifact ids, reads its inbox inside the workspace, keeps outside absolute", async () => {
    const b = await bench();
    const real = b.sandbox.cwd;
    const outside = join(b.sandbox.root, "outside");
    await mkdir(outside);
    b.model.setRules([
      {
        name: "read-attachment",
        match: { lastUserText: "Write the load", toolResult: false },
        // The path the server gave Claude for the attachment, as the runtime reads it.
        reply: (req) =>
          reply(
            toolUse("Read", {
              file_path: join(
                real,
                /\.claude\/a2a-inbox\/\S+?\.txt/.exec(req.lastUserText)?.[0] ?? "?",
              ),
            }),
          ),
      },
      {
        name: "write-both",
        match: { toolResult: /some notes/ },
        reply: reply([
          // The runtime reports real paths: one inside, one relative, one outside.
          toolUse("Write", { file_path: join(real, "load_10.txt"), content: "10\n" }),
          toolUse("Write", { file_path: "sub/load_11.txt", content: "11\n" }),
        ]),
      },
      {
        name: "write-outside",
        match: { toolResult: /load_11/ },
        reply: reply(toolUse("Write", { file_path: join(outside, "x.txt"), content: "x\n" })),
      },
      afterTool(true, "Written.", "done"),
    ]);
    const link = join(b.sandbox.root, "link");
    await symlink(real, link, "dir");
    await mkdir(join(real, "sub"));
    await writeFile(join(real, "README.md"), "# ws\n");
    const config = resolveConfig(
      {
        claude: {
          model: TEST_MODEL,
          settingSources: [],
          permissionMode: "acceptEdits",
          // Outside the workspace is allowed here: the id of such a file is what is tested.
          additionalDirectories: [outside],
        },
      },
      { file: "<test>", startDir: link, overrides: { port: await freePort() } },
    );
    expect(config.claude.cwd).toBe(link);
    const server = await served(b, config);
    const client = await connect(server.url);
    const task = await sendForTask(
      client,
      userMessage([
        textPart("Write the load"),
        rawPart(Buffer.from("some notes\n"), "text/plain", "notes.txt"),
      ]),
    );
    // No permission asked: the inbox and the workspace's files are inside.
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const files = task.artifacts
      .filter((a) => a.metadata?.kind === "file")
      .map((a) => [a.artifactId, String(a.metadata?.path)]);
    expect(files).toEqual([
      ["file:load_10.txt", "load_10.txt"],
      ["file:sub/load_11.txt", "sub/load_11.txt"],
      [`file:${join(outside, "x.txt")}`, join(outside, "x.txt")],
    ]);
    expect(b.model.unmatched).toEqual([]);
  });
});
