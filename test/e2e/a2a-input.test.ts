/** What a client sends becomes what Claude reads: text, data, files (to the inbox), images, URLs. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Part } from "@a2a-js/sdk";
import { a2a, messageText, resultOf, says, textPart } from "../support/harness/index.js";
import { taskInbox } from "../../src/workspace/inbox.js";
import { ANONYMOUS_OWNER } from "../../src/identity/caller.js";

// A 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const part = (content: Part["content"], mediaType = "", filename = ""): Part => ({
  content,
  mediaType,
  filename,
  metadata: undefined,
});

describe("A2A server: message parts", () => {
  it("passes text, data, url, a file and an image to Claude, files saved in the inbox", async () => {
    const h = await a2a({
      rules: [says("Review these", "Reviewed.")],
    });
    const task = await h.send([
      textPart("Review these"),
      part({ $case: "data", value: { priority: "high", ids: [1, 2] } }, "application/json"),
      part({ $case: "url", value: "https://example.com/spec" }, "", "spec"),
      part({ $case: "raw", value: Buffer.from("name,qty\nmilk,2\n") }, "text/csv", "../list.csv"),
      part({ $case: "raw", value: PNG }, "image/png", "dot.png"),
    ]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(task)).toBe("Reviewed.");

    const inbox = taskInbox(ANONYMOUS_OWNER, task.id);
    expect(inbox).toMatch(new RegExp(`^\\.claude/a2a-inbox/[0-9a-f]{16}/${task.id}$`));
    const cwd = h.bench.sandbox.cwd;
    expect(await readFile(join(cwd, inbox, "list.csv"), "utf8")).toBe("name,qty\nmilk,2\n");
    expect(await readFile(join(cwd, inbox, "dot.png"))).toEqual(PNG);

    const [request] = h.bench.model.messageRequests;
    const said = request?.lastUserText ?? "";
    expect(said).toContain("Review these");
    expect(said).toContain('"priority": "high"');
    expect(said).toContain("Attached URL (spec): https://example.com/spec");
    expect(said).toContain(`Attached file saved at ${inbox}/list.csv (text/csv, 16 bytes).`);
    expect(said).toContain(
      `Attached file saved at ${inbox}/dot.png (image/png, ${PNG.length} bytes).`,
    );
    // The image itself reaches the model as an image block.
    const lastUser = (request?.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === "user")
      .at(-1);
    expect(JSON.stringify(lastUser?.content)).toContain(PNG.toString("base64"));
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("fails a message with no usable content clearly, without calling Claude", async () => {
    const h = await a2a();
    const task = await h.send([textPart("")]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(messageText(task.status?.message)).toBe("The message has no content to give to Claude.");
    expect(h.bench.model.requests).toEqual([]);
    expect(h.spawns()).toBe(0);
  });
});
