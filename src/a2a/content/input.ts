import { basename } from "node:path";
import type { Message, Part } from "@a2a-js/sdk";
import type { UserPrompt } from "../../claude/index.js";
import { essence, IMAGE_MEDIA_TYPES } from "../../common/media-types.js";
import { safeSegment, type InboxFile } from "../../workspace/inbox.js";
import { partMediaType } from "./content-modes.js";

const IMAGE_TYPES = new Set<string>(IMAGE_MEDIA_TYPES);
type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export interface PromptPlan {
  /** Text blocks and image blocks, in message order. */
  readonly blocks: PromptBlock[];
  readonly files: InboxFile[];
  /** The task's inbox folder the files go to (`taskInbox`), relative to where it works. */
  readonly folder: string;
}

export type PromptBlock =
  { type: "text"; text: string } | { type: "image"; mediaType: ImageMediaType; base64: string };

export class InputError extends Error {}

/**
 * A2A parts → what Claude is told. Pure: files are planned here, in the task's inbox folder
 * `folder` (`taskInbox`), and written by `writeInbox`.
 */
export function planPrompt(message: Pick<Message, "parts">, folder: string): PromptPlan {
  const blocks: PromptBlock[] = [];
  const files: InboxFile[] = [];
  const texts: string[] = [];
  const usedNames = new Set<string>();
  const flushText = () => {
    if (texts.length > 0) blocks.push({ type: "text", text: texts.splice(0).join("\n") });
  };
  message.parts.forEach((part: Part, index) => {
    const content = part.content;
    switch (content?.$case) {
      case "text":
        if (content.value !== "") texts.push(content.value);
        return;
      case "data":
        texts.push(JSON.stringify(content.value ?? null, null, 2));
        return;
      case "url":
        texts.push(`Attached URL${part.filename ? ` (${part.filename})` : ""}: ${content.value}`);
        return;
      case "raw": {
        const bytes = Buffer.from(content.value);
        const mediaType = partMediaType(part);
        const name = uniqueName(safeFileName(part.filename, index), usedNames);
        const path = `${folder}/${name}`;
        files.push({ path, bytes, mediaType });
        texts.push(`Attached file saved at ${path} (${mediaType}, ${bytes.length} bytes).`);
        const imageType = essence(mediaType);
        if (IMAGE_TYPES.has(imageType)) {
          flushText();
          blocks.push({
            type: "image",
            mediaType: imageType as ImageMediaType,
            base64: bytes.toString("base64"),
          });
        }
        return;
      }
      case undefined:
        throw new InputError(
          `Message part ${index} has no content (expected text, data, raw or url).`,
        );
    }
  });
  flushText();
  if (blocks.length === 0) throw new InputError("The message has no content to give to Claude.");
  return { blocks, files, folder };
}

/** The plan as the SDK's user message content: a plain string when it is text only. */
export function toUserPrompt(plan: PromptPlan): UserPrompt {
  const [first] = plan.blocks;
  if (plan.blocks.length === 1 && first?.type === "text") return first.text;
  return plan.blocks.map((b) =>
    b.type === "text"
      ? { type: "text" as const, text: b.text }
      : {
          type: "image" as const,
          source: { type: "base64" as const, media_type: b.mediaType, data: b.base64 },
        },
  );
}

/** A client-chosen name must never escape the inbox: keep the last segment, tame the characters. */
function safeFileName(filename: string, index: number): string {
  const base = safeSegment(basename(filename.replace(/\\/g, "/")));
  return base === "" || base === "." || base === ".." ? `file-${index + 1}` : base;
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) {
    const dot = name.lastIndexOf(".");
    candidate = dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
  }
  used.add(candidate);
  return candidate;
}
