import { readFile, readdir } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  InputError,
  planPrompt,
  toUserPrompt,
  type PromptPlan,
} from "../../../../src/a2a/content/input.js";
import { callerInbox, INBOX_DIR, taskInbox, writeInbox } from "../../../../src/workspace/inbox.js";
import { useTempDir } from "../../../support/unit/temp-dir.js";

const part = (content: Part["content"], mediaType = "", filename = ""): Part => ({
  content,
  mediaType,
  filename,
  metadata: undefined,
});
const text = (value: string) => part({ $case: "text", value }, "text/plain");
const data = (value: unknown) => part({ $case: "data", value }, "application/json");
const url = (value: string, filename = "") => part({ $case: "url", value }, "", filename);
const raw = (bytes: Buffer | string, mediaType: string, filename: string) =>
  part({ $case: "raw", value: Buffer.from(bytes) }, mediaType, filename);
const plan = (...parts: Part[]) => planPrompt({ parts }, `${INBOX_DIR}/task-1`);
const promptText = (p: PromptPlan) =>
  p.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01]);

describe("planPrompt: text, data and url parts", () => {
  it("joins text parts with a newline into one plain-string prompt", () => {
    const p = plan(text("first"), text("second"));
    expect(p.blocks).toEqual([{ type: "text", text: "first\nsecond" }]);
    expect(p.files).toEqual([]);
    expect(toUserPrompt(p)).toBe("first\nsecond");
  });

  it("skips empty text parts instead of adding blank lines", () => {
    expect(toUserPrompt(plan(text(""), text("only"), text("")))).toBe("only");
  });

  it("gives data parts to Claude as pretty-printed JSON text", () => {
    const value = { answers: { "Which colour?": "red" }, n: [1, 2] };
    expect(toUserPrompt(plan(text("see:"), data(value)))).toBe(
      `see:\n${JSON.stringify(value, null, 2)}`,
    );
    expect(toUserPrompt(plan(data(undefined)))).toBe("null");
  });

  it("gives url parts as text naming the url, and the filename when there is one", () => {
    expect(toUserPrompt(plan(url("https://example.com/a.pdf", "a.pdf")))).toBe(
      "Attached URL (a.pdf): https://example.com/a.pdf",
    );
    expect(toUserPrompt(plan(url("https://example.com/")))).toBe(
      "Attached URL: https://example.com/",
    );
  });
});

describe("planPrompt: raw parts", () => {
  it("plans the file under the task's inbox and names it in the prompt", () => {
    const p = plan(text("summarise this"), raw("hello", "text/csv", "data.csv"));
    expect(p.files).toEqual([
      { path: `${INBOX_DIR}/task-1/data.csv`, bytes: Buffer.from("hello"), mediaType: "text/csv" },
    ]);
    expect(INBOX_DIR).toBe(".claude/a2a-inbox");
    expect(toUserPrompt(p)).toBe(
      "summarise this\nAttached file saved at .claude/a2a-inbox/task-1/data.csv (text/csv, 5 bytes).",
    );
  });

  it("defaults the media type to application/octet-stream and the name to file-<n>", () => {
    const p = plan(text("x"), raw("abc", "", ""));
    expect(p.files[0]).toMatchObject({
      path: ".claude/a2a-inbox/task-1/file-2",
      mediaType: "application/octet-stream",
    });
    expect(promptText(p)).toContain("(application/octet-stream, 3 bytes)");
  });

  it("takes an untyped file's media type from its name; an untyped .png is shown as an image", () => {
    const p = plan(text("look"), raw(PNG, "", "shot.png"), raw("a,b", "", "t.CSV"));
    expect(p.files.map((f) => f.mediaType)).toEqual(["image/png", "text/csv"]);
    expect(p.blocks.map((b) => b.type)).toEqual(["text", "image", "text"]);
  });

  it("shows a typed image with parameters as an image of its bare type", () => {
    const p = plan(raw(PNG, "Image/PNG; x=y", "a.png"));
    expect(p.blocks[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      base64: PNG.toString("base64"),
    });
  });

  it.each([
    ["../../etc/passwd", "passwd"],
    ["/etc/shadow", "shadow"],
    ["a/b\\c", "c"],
    ["..\\..\\windows\\system.ini", "system.ini"],
    ["..", "_"],
    ["../", "_"],
    [".", "_"],
    ["dir/", "dir"],
    [".bashrc", "_bashrc"],
    ["my report (final).txt", "my_report__final_.txt"],
    ["naïve$`rm -rf`.md", "na_ve__rm_-rf_.md"],
  ])("keeps the client-chosen name %j inside the inbox as %j", (filename, expected) => {
    const p = plan(raw("x", "text/plain", filename));
    const path = p.files[0]?.path ?? "";
    expect(path).toBe(`${INBOX_DIR}/task-1/${expected}`);
    const inbox = resolve("/ws", INBOX_DIR, "task-1");
    const rel = relative(inbox, resolve("/ws", path));
    expect(rel.startsWith("..") || rel.includes(sep)).toBe(false);
    expect(promptText(p)).toContain(`Attached file saved at ${path} `);
  });

  it("keeps a hostile task id from leaving its caller's inbox folder", () => {
    const folder = taskInbox("token:ci", "../../../tmp/evil");
    const p = planPrompt({ parts: [raw("x", "text/plain", "f.txt")] }, folder);
    const path = p.files[0]?.path ?? "";
    const rel = relative(resolve("/ws", callerInbox("token:ci")), resolve("/ws", path));
    expect(rel.startsWith("..")).toBe(false);
    expect(rel.split(sep)).toHaveLength(2);
    // Two callers' folders differ, and neither names its caller.
    expect(callerInbox("token:ci")).not.toBe(callerInbox("token:other"));
    expect(callerInbox("token:ci")).toMatch(/^\.claude\/a2a-inbox\/[0-9a-f]{16}$/);
  });

  it("caps very long names", () => {
    const p = plan(raw("x", "text/plain", `${"a".repeat(500)}.txt`));
    const name = p.files[0]?.path.split("/").at(-1) ?? "";
    expect(name.length).toBeLessThanOrEqual(120);
  });

  it("gives duplicate names -2, -3 … before the extension, without ever reusing a name", () => {
    const p = plan(
      raw("1", "text/plain", "report.txt"),
      raw("2", "text/plain", "sub/report.txt"),
      raw("3", "text/plain", "report.txt"),
      raw("4", "application/octet-stream", "README"),
      raw("5", "application/octet-stream", "README"),
      raw("6", "text/plain", "x-2.txt"),
      raw("7", "text/plain", "x.txt"),
      raw("8", "text/plain", "x.txt"),
    );
    const names = p.files.map((f) => f.path.split("/").at(-1));
    expect(names).toEqual([
      "report.txt",
      "report-2.txt",
      "report-3.txt",
      "README",
      "README-2",
      "x-2.txt",
      "x.txt",
      "x-3.txt",
    ]);
    expect(p.files.map((f) => f.bytes.toString())).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
    ]);
    for (const f of p.files) expect(promptText(p)).toContain(f.path);
  });
});

describe("planPrompt: images", () => {
  it.each(["image/png", "image/jpeg", "image/gif", "image/webp"])(
    "adds %s as an image block, in message order, and saves it too",
    (mediaType) => {
      const p = plan(text("before"), raw(PNG, mediaType, "pic"), text("after"));
      expect(p.blocks).toEqual([
        {
          type: "text",
          text: `before\nAttached file saved at .claude/a2a-inbox/task-1/pic (${mediaType}, ${PNG.length} bytes).`,
        },
        { type: "image", mediaType, base64: PNG.toString("base64") },
        { type: "text", text: "after" },
      ]);
      expect(p.files).toHaveLength(1);
      expect(toUserPrompt(p)).toEqual([
        { type: "text", text: expect.stringContaining("before") as unknown },
        {
          type: "image",
          source: { type: "base64", media_type: mediaType, data: PNG.toString("base64") },
        },
        { type: "text", text: "after" },
      ]);
    },
  );

  it("keeps several images in order", () => {
    const p = plan(raw("A", "image/png", "a.png"), raw("B", "image/gif", "b.gif"));
    const kinds = p.blocks.map((b) => (b.type === "image" ? `img:${b.base64}` : "text"));
    expect(kinds).toEqual([
      "text",
      `img:${Buffer.from("A").toString("base64")}`,
      "text",
      `img:${Buffer.from("B").toString("base64")}`,
    ]);
  });

  it("does not send other media types (svg, pdf) as image blocks", () => {
    const p = plan(raw("<svg/>", "image/svg+xml", "a.svg"), raw("%PDF", "application/pdf", "b"));
    expect(p.blocks.every((b) => b.type === "text")).toBe(true);
    expect(typeof toUserPrompt(p)).toBe("string");
    expect(p.files).toHaveLength(2);
  });
});

describe("planPrompt: bad input", () => {
  it("refuses a message with no parts with a clear InputError", () => {
    expect(() => plan()).toThrow(InputError);
    expect(() => plan()).toThrow("The message has no content to give to Claude.");
  });

  it("refuses a message whose only text is empty", () => {
    expect(() => plan(text(""), text(""))).toThrow(
      new InputError("The message has no content to give to Claude."),
    );
  });

  it("refuses a part with no content, saying which part and what was expected", () => {
    const empty = part(undefined);
    expect(() => plan(text("hi"), empty)).toThrow(InputError);
    expect(() => plan(text("hi"), empty)).toThrow(
      /part 1 has no content \(expected text, data, raw or url\)/,
    );
  });
});

describe("writeInbox", () => {
  const dir = useTempDir("claude-a2a-inbox-");

  it("writes every planned file's bytes under the workspace, creating the directories", async () => {
    const p = plan(
      raw(PNG, "image/png", "../../escape.png"),
      raw("a,b\n1,2\n", "text/csv", "t.csv"),
      raw("again", "text/csv", "t.csv"),
    );
    await writeInbox(dir(), p.files);
    const inbox = join(dir(), ".claude", "a2a-inbox", "task-1");
    expect((await readdir(inbox)).sort()).toEqual(["escape.png", "t-2.csv", "t.csv"]);
    expect(await readFile(join(inbox, "escape.png"))).toEqual(PNG);
    expect(await readFile(join(inbox, "t.csv"), "utf8")).toBe("a,b\n1,2\n");
    expect(await readFile(join(inbox, "t-2.csv"), "utf8")).toBe("again");
    expect(await readdir(dir())).toEqual([".claude"]);
  });

  it("writes nothing for a text-only plan", async () => {
    await writeInbox(dir(), plan(text("hi")).files);
    expect(await readdir(dir())).toEqual([]);
  });
});
