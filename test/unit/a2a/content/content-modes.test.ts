import type { Part, SendMessageRequest } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import {
  acceptsFileArtifact,
  checkContentModes,
  contentModesOf,
  FileDelivery,
  inputModesRefusal,
  outputModesRefusal,
  partMediaType,
  unsentFilesNote,
} from "../../../../src/a2a/content/content-modes.js";
import { artifact, rawPart, textPart } from "../../../../src/contract/messages.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import { DEFAULT_INPUT_MODES, mediaTypeMatches } from "../../../../src/common/media-types.js";

const part = (content: Part["content"], mediaType = "", filename = ""): Part => ({
  content,
  mediaType,
  filename,
  metadata: undefined,
});
const text = (value: string, mediaType = "") => part({ $case: "text", value }, mediaType);
const data = (mediaType = "") => part({ $case: "data", value: { a: 1 } }, mediaType);
const raw = (mediaType: string, filename = "f") =>
  part({ $case: "raw", value: Buffer.from("x") }, mediaType, filename);
const url = (mediaType = "") => part({ $case: "url", value: "https://example.com/x" }, mediaType);

const modesOf = (input: ConfigInput = {}) =>
  contentModesOf(
    buildAgentCard(resolveConfig(input, { file: "t.json", startDir: "/w" }), { version: "0" }),
  );

const request = (parts: Part[], acceptedOutputModes?: string[]): SendMessageRequest => ({
  tenant: "",
  message: {
    messageId: "m",
    contextId: "",
    taskId: "",
    role: 1,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: acceptedOutputModes && {
    acceptedOutputModes,
    taskPushNotificationConfig: undefined,
    historyLength: undefined,
    returnImmediately: false,
  },
  metadata: undefined,
});

describe("mediaTypeMatches", () => {
  it.each([
    ["text/plain", "text/plain", true],
    ["Text/Plain; charset=utf-8", "text/plain", true],
    ["text/markdown", "text/*", true],
    ["image/png", "*/*", true],
    ["image/png", "text/*", false],
    ["text/plain", "text/markdown", false],
    ["textual/plain", "text/*", false],
  ])("%s against %s: %s", (type, mode, expected) => {
    expect(mediaTypeMatches(type, mode)).toBe(expected);
  });
});

describe("partMediaType", () => {
  it("is the declared type, else what the part's kind implies", () => {
    expect(partMediaType(text("hi"))).toBe("text/plain");
    expect(partMediaType(text("# hi", "text/markdown"))).toBe("text/markdown");
    expect(partMediaType(data())).toBe("application/json");
    expect(partMediaType(raw("", "photo.PNG"))).toBe("image/png");
    expect(partMediaType(raw("", "blob"))).toBe("application/octet-stream");
    expect(partMediaType(raw("application/pdf", "x.png"))).toBe("application/pdf");
    expect(partMediaType(url())).toBe("text/plain");
  });
});

describe("input modes", () => {
  it("accepts, by default, text, data, images and the documents Claude reads", () => {
    const modes = modesOf();
    expect(modes.input).toEqual(DEFAULT_INPUT_MODES);
    const parts = [
      text("hi"),
      data(),
      url(),
      raw("image/png"),
      raw("image/webp"),
      raw("text/csv"),
      raw("application/pdf"),
      raw("", "notes.md"),
    ];
    expect(inputModesRefusal(parts, modes)).toBeUndefined();
  });

  it("refuses the first part outside them, naming its type and what is accepted", () => {
    const modes = modesOf({ agentCard: { defaultInputModes: ["text/plain", "image/png"] } });
    expect(inputModesRefusal([text("hi"), raw("image/png")], modes)).toBeUndefined();
    expect(inputModesRefusal([text("hi"), raw("audio/mpeg", "a.mp3")], modes)).toBe(
      "Message part 1 has media type 'audio/mpeg', which this agent does not accept. " +
        "Accepted input modes: text/plain, image/png.",
    );
    // Narrowed: data parts and untyped files are refused too.
    expect(inputModesRefusal([data()], modes)).toContain("'application/json'");
    expect(inputModesRefusal([raw("", "blob")], modes)).toContain("'application/octet-stream'");
  });

  it("takes a data part of a +json type as JSON", () => {
    const modes = modesOf();
    expect(inputModesRefusal([data("application/vnd.acme.order+json")], modes)).toBeUndefined();
    expect(inputModesRefusal([raw("application/vnd.acme.order+json")], modes)).toContain(
      "vnd.acme",
    );
  });

  it("accepts what a skill lists besides the defaults, and wildcards", () => {
    const modes = modesOf({
      agentCard: {
        defaultInputModes: ["text/plain"],
        skills: [{ id: "s", name: "S", description: "d", inputModes: ["audio/*"] }],
      },
    });
    expect(modes.input).toEqual(["text/plain", "audio/*"]);
    expect(inputModesRefusal([raw("audio/mpeg")], modes)).toBeUndefined();
    expect(inputModesRefusal([raw("video/mp4")], modes)).toContain("'video/mp4'");
  });
});

describe("output modes", () => {
  it("serves a request that accepts text/plain, a wildcard covering it, or says nothing", () => {
    for (const accepted of [[], ["text/plain"], ["image/png", "text/*"], ["*/*"]]) {
      expect(outputModesRefusal(accepted)).toBeUndefined();
    }
  });

  it("refuses one that excludes text/plain, saying what the agent answers in", () => {
    expect(outputModesRefusal(["image/png"])).toBe(
      "acceptedOutputModes (image/png) excludes text/plain: this agent always answers in " +
        "text/plain (with application/json data parts and file artifacts besides). " +
        "Add text/plain to acceptedOutputModes.",
    );
    expect(outputModesRefusal(["application/json"])).toContain("excludes text/plain");
  });
});

describe("checkContentModes", () => {
  const modes = modesOf();

  it("throws ContentTypeNotSupported for a refused part or output mode, else nothing", () => {
    expect(() => checkContentModes(request([text("hi")]), modes)).not.toThrow();
    expect(() => checkContentModes(request([text("hi")], ["text/plain"]), modes)).not.toThrow();
    for (const bad of [request([raw("audio/mpeg")]), request([text("hi")], ["image/png"])]) {
      expect(() => checkContentModes(bad, modes)).toThrow(ContentTypeNotSupportedError);
    }
  });
});

describe("acceptsFileArtifact", () => {
  const md = artifact("file:a.md", "a.md", [rawPart(Buffer.from("#"), "text/markdown", "a.md")], {
    kind: "file",
    mediaType: "text/markdown",
  });
  const png = artifact("file:p.png", "p.png", [rawPart(Buffer.from("x"), "image/png", "p.png")], {
    kind: "file",
    mediaType: "image/png",
  });
  const bigNote = artifact("file:b.md", "b.md", [textPart("b.md was created (…)")], {
    kind: "file",
    mediaType: "text/markdown",
    truncated: true,
  });

  it("sends every file when the client names no output modes", () => {
    expect([md, png, bigNote].map((a) => acceptsFileArtifact(a, []))).toEqual([true, true, true]);
  });

  it("sends none to a text/plain-only client", () => {
    expect([md, png, bigNote].map((a) => acceptsFileArtifact(a, ["text/plain"]))).toEqual([
      false,
      false,
      false,
    ]);
    expect(acceptsFileArtifact(md, ["text/plain; charset=utf-8"])).toBe(false);
  });

  it("sends a file whose type another accepted mode covers", () => {
    const accepted = ["text/plain", "text/markdown"];
    expect([md, png, bigNote].map((a) => acceptsFileArtifact(a, accepted))).toEqual([
      true,
      false,
      true,
    ]);
    expect(acceptsFileArtifact(png, ["text/plain", "image/*"])).toBe(true);
    expect(acceptsFileArtifact(png, ["*/*"])).toBe(true);
    expect(acceptsFileArtifact(md, ["text/*"])).toBe(true);
  });
});

describe("unsentFilesNote", () => {
  it("lists each held-back path once, in order; nothing when there is none", () => {
    expect(unsentFilesNote([])).toBe("");
    expect(unsentFilesNote(["notes.md", "img/p.png", "notes.md"])).toBe(
      "\n\nFiles changed (not attached: acceptedOutputModes does not cover them):\n" +
        "- notes.md\n- img/p.png",
    );
  });
});

describe("FileDelivery", () => {
  const file = (path: string, mediaType: string) =>
    artifact(`file:${path}`, path, [rawPart(Buffer.from("x"), mediaType, path)], {
      kind: "file",
      path,
      mediaType,
    });

  it("admits every file and leaves the answer alone when the client names no modes", () => {
    const d = new FileDelivery([]);
    expect(d.admit(file("a.md", "text/markdown"))).toBe(true);
    expect(d.finalText("Done.")).toBe("Done.");
  });

  it("holds back what a text/plain-only client cannot take, and lists it after the answer", () => {
    const d = new FileDelivery(["text/plain"]);
    expect(d.admit(file("notes.md", "text/markdown"))).toBe(false);
    expect(d.admit(file("img/p.png", "image/png"))).toBe(false);
    expect(d.admit(file("notes.md", "text/markdown"))).toBe(false);
    expect(d.finalText("Done.")).toBe(
      "Done.\n\nFiles changed (not attached: acceptedOutputModes does not cover them):\n" +
        "- notes.md\n- img/p.png",
    );
  });

  it("admits the files an accepted mode covers, listing only the others", () => {
    const d = new FileDelivery(["text/plain", "image/*"]);
    expect(d.admit(file("p.png", "image/png"))).toBe(true);
    expect(d.admit(file("n.md", "text/markdown"))).toBe(false);
    expect(d.finalText("")).toBe(
      "Files changed (not attached: acceptedOutputModes does not cover them):\n- n.md",
    );
  });
});
