import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  changedFilePath,
  decodeText,
  fileArtifact,
  fileArtifactId,
  fileOperation,
  FILE_TOOL_MATCHER,
  type FileChange,
} from "../../../../src/a2a/content/file-artifacts.js";
import { RefusedFileError } from "../../../../src/common/safe-files.js";
import { useTempDir } from "../../../support/unit/temp-dir.js";

describe("changedFilePath", () => {
  it.each([
    ["Write", { file_path: "/w/a.txt", content: "x" }, "/w/a.txt"],
    ["Edit", { file_path: "src/b.ts", old_string: "a", new_string: "b" }, "src/b.ts"],
    ["MultiEdit", { file_path: "/w/c.md", edits: [] }, "/w/c.md"],
    ["NotebookEdit", { notebook_path: "/w/n.ipynb", new_source: "" }, "/w/n.ipynb"],
  ])("reads the path %s wrote", (tool, input, expected) => {
    expect(changedFilePath(tool, input)).toBe(expected);
  });

  it.each([
    ["Read", { file_path: "/w/a.txt" }],
    ["Bash", { command: "echo > f", file_path: "/w/f" }],
    ["Glob", { pattern: "*" }],
    ["write", { file_path: "/w/a.txt" }],
    ["mcp__fs__Write", { file_path: "/w/a.txt" }],
  ])("ignores %s, which does not create or modify files", (tool, input) => {
    expect(changedFilePath(tool, input)).toBeUndefined();
  });

  it("ignores inputs without a usable path", () => {
    expect(changedFilePath("Write", null)).toBeUndefined();
    expect(changedFilePath("Write", "a.txt")).toBeUndefined();
    expect(changedFilePath("Write", {})).toBeUndefined();
    expect(changedFilePath("Write", { file_path: "" })).toBeUndefined();
    expect(changedFilePath("Edit", { file_path: 42 })).toBeUndefined();
  });

  it("matches exactly the file tools in the hook matcher", () => {
    expect(FILE_TOOL_MATCHER.split("|").sort()).toEqual(
      ["Edit", "MultiEdit", "NotebookEdit", "Write"].sort(),
    );
  });
});

describe("fileOperation", () => {
  it("is created only for a Write that reports type create", () => {
    expect(fileOperation("Write", { type: "create", filePath: "/w/a" })).toBe("created");
    expect(fileOperation("Write", { type: "update" })).toBe("modified");
    expect(fileOperation("Write", undefined)).toBe("modified");
    expect(fileOperation("Write", null)).toBe("modified");
    expect(fileOperation("Edit", { type: "create" })).toBe("modified");
    expect(fileOperation("MultiEdit", {})).toBe("modified");
    expect(fileOperation("NotebookEdit", { type: "create" })).toBe("modified");
  });
});

describe("fileArtifact", () => {
  const cwd = useTempDir("claude-a2a-files-");

  const change = (path: string, over: Partial<FileChange> = {}): FileChange => ({
    cwd: cwd(),
    path,
    toolName: "Write",
    operation: "created",
    maxBytes: 1024,
    ...over,
  });

  it("attaches a text file as a file part: raw bytes, the media type of its extension, its name", async () => {
    await mkdir(join(cwd(), "docs"));
    const content = "# Title\nbody é\n";
    await writeFile(join(cwd(), "docs", "notes.md"), content);
    const art = await fileArtifact(change(join(cwd(), "docs", "notes.md")));
    expect(art.artifactId).toBe("file:docs/notes.md");
    expect(art.name).toBe("notes.md");
    expect(art.metadata).toEqual({
      kind: "file",
      path: "docs/notes.md",
      tool: "Write",
      operation: "created",
      mediaType: "text/markdown",
      size: Buffer.byteLength(content),
    });
    expect(art.parts).toHaveLength(1);
    const part = art.parts[0];
    expect(part).toMatchObject({
      content: { $case: "raw", value: Buffer.from(content) },
      mediaType: "text/markdown",
      filename: "notes.md",
    });
    // On the wire: {raw: base64, mediaType, filename}, no text.
    expect(part && Part.toJSON(part)).toEqual({
      raw: Buffer.from(content).toString("base64"),
      mediaType: "text/markdown",
      filename: "notes.md",
    });
  });

  it.each([
    ["a.ts", "text/x-typescript"],
    ["a.JSON", "application/json"],
    ["a.py", "text/x-python"],
    ["a.txt", "text/plain"],
    ["a.unknownext", "text/plain"],
    ["Makefile", "text/plain"],
  ])("gives %s the media type %s", async (name, mediaType) => {
    await writeFile(join(cwd(), name), "content");
    const art = await fileArtifact(change(name, { toolName: "Edit", operation: "modified" }));
    expect(art.parts[0]?.mediaType).toBe(mediaType);
    expect(art.parts[0]?.content).toEqual({ $case: "raw", value: Buffer.from("content") });
    expect(art.metadata).toMatchObject({ tool: "Edit", operation: "modified", mediaType });
  });

  it("attaches a file containing NUL bytes as raw bytes, base64 on the wire", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);
    await writeFile(join(cwd(), "pic.png"), bytes);
    const art = await fileArtifact(change("pic.png"));
    const part = art.parts[0];
    expect(part?.content).toEqual({ $case: "raw", value: bytes });
    expect(part?.mediaType).toBe("image/png");
    expect(part?.filename).toBe("pic.png");
    expect(part && Part.toJSON(part)).toMatchObject({ raw: bytes.toString("base64") });
    expect(art.metadata).toMatchObject({ size: bytes.length });
  });

  it("treats invalid UTF-8 without NUL as binary, octet-stream when the type is unknown", async () => {
    const bytes = Buffer.from([0x41, 0xff, 0xfe, 0x42]);
    await writeFile(join(cwd(), "blob.bin"), bytes);
    const art = await fileArtifact(change("blob.bin"));
    expect(art.parts[0]?.content).toEqual({ $case: "raw", value: bytes });
    expect(art.parts[0]?.mediaType).toBe("application/octet-stream");
  });

  it("replaces a file over the size cap by a note, marked truncated", async () => {
    await writeFile(join(cwd(), "big.txt"), "x".repeat(2000));
    const art = await fileArtifact(change("big.txt", { maxBytes: 1000, operation: "modified" }));
    expect(art.artifactId).toBe("file:big.txt");
    expect(art.metadata).toMatchObject({
      kind: "file",
      path: "big.txt",
      mediaType: "text/plain",
      size: 2000,
      truncated: true,
    });
    expect(art.parts).toHaveLength(1);
    const content = art.parts[0]?.content;
    expect(content?.$case).toBe("text");
    const note = content?.$case === "text" ? content.value : "";
    expect(note).toContain("big.txt was modified (2000 bytes)");
    expect(note).toContain("1000-byte");
    expect(note).not.toContain("xxxx");
  });

  it("attaches a file of exactly the cap, untruncated", async () => {
    await writeFile(join(cwd(), "edge.txt"), "y".repeat(10));
    const art = await fileArtifact(change("edge.txt", { maxBytes: 10 }));
    expect(art.parts[0]?.content).toEqual({ $case: "raw", value: Buffer.from("y".repeat(10)) });
    expect(art.metadata).not.toHaveProperty("truncated");
  });

  it("keeps one artifact id per path, however the path is written", async () => {
    await mkdir(join(cwd(), "src"));
    await writeFile(join(cwd(), "src", "a.ts"), "v1");
    const first = await fileArtifact(change(join(cwd(), "src", "a.ts")));
    await writeFile(join(cwd(), "src", "a.ts"), "v2");
    const second = await fileArtifact(change("src/a.ts", { operation: "modified" }));
    const third = await fileArtifact(change("./src/../src/a.ts", { operation: "modified" }));
    expect(first.artifactId).toBe("file:src/a.ts");
    expect(second.artifactId).toBe(first.artifactId);
    expect(third.artifactId).toBe(first.artifactId);
    expect(fileArtifactId("src/a.ts")).toBe(first.artifactId);
    expect(second.parts[0]?.content).toEqual({ $case: "raw", value: Buffer.from("v2") });
  });

  it("names a file outside the workspace by its absolute path, and refuses a link there", async () => {
    const outside = await mkdtemp(join(tmpdir(), "claude-a2a-outside-"));
    try {
      await writeFile(join(outside, "o.txt"), "out");
      const art = await fileArtifact(change(join(outside, "o.txt")));
      expect(art.artifactId).toBe(`file:${join(outside, "o.txt")}`);
      expect(art.metadata).toMatchObject({ path: join(outside, "o.txt") });
      expect(art.name).toBe("o.txt");
      await symlink("/etc/hostname", join(outside, "l.txt"));
      await expect(fileArtifact(change(join(outside, "l.txt")))).rejects.toMatchObject({
        kind: "link",
      });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it.each([
    ["the file", "notes.txt", "notes.txt", "notes.txt"],
    ["a folder above it", "docs", "docs/secret", "docs"],
  ])(
    "refuses %s swapped for a link to a secret outside, and reads nothing of it",
    async (_what, link, path, shown) => {
      const outside = await mkdtemp(join(tmpdir(), "claude-a2a-outside-"));
      try {
        await writeFile(join(outside, "secret"), "SECRET");
        await symlink(link === "docs" ? outside : join(outside, "secret"), join(cwd(), link));
        const err = await fileArtifact(change(path)).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RefusedFileError);
        expect(err).toMatchObject({ kind: "link", path: shown });
        expect(String(err)).not.toContain("SECRET");
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    },
  );

  it("refuses a FIFO in the file's place without waiting for a writer", async () => {
    execFileSync("mkfifo", [join(cwd(), "pipe.txt")]);
    await expect(fileArtifact(change("pipe.txt"))).rejects.toMatchObject({ kind: "not-regular" });
  });

  it("names a file of a workspace reached through a link by its workspace-relative path", async () => {
    const link = `${cwd()}-link`;
    await symlink(cwd(), link);
    try {
      await writeFile(join(cwd(), "a.txt"), "a");
      const real = await fileArtifact({ ...change(join(cwd(), "a.txt")), cwd: link });
      const linked = await fileArtifact({ ...change(join(link, "a.txt")), cwd: link });
      expect(real.artifactId).toBe("file:a.txt");
      expect(linked.artifactId).toBe("file:a.txt");
    } finally {
      await rm(link, { force: true });
    }
  });
});

describe("decodeText", () => {
  it("decodes UTF-8 and refuses NUL or invalid sequences", () => {
    expect(decodeText(Buffer.from("héllo"))).toBe("héllo");
    expect(decodeText(Buffer.from(""))).toBe("");
    expect(decodeText(Buffer.from([0x61, 0x00]))).toBeUndefined();
    expect(decodeText(Buffer.from([0xc3]))).toBeUndefined();
  });
});
