import type { BlockDelta, ContentBlock, StreamPart } from "./normalized-event.js";
import { isRec, num, str, type Rec } from "./json.js";

export function contentBlocks(content: unknown): ContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRec).map(contentBlock);
}

function contentBlock(b: Rec): ContentBlock {
  switch (b.type) {
    case "text":
      return { type: "text", text: str(b.text) ?? "" };
    case "thinking":
      return { type: "thinking", thinking: str(b.thinking) ?? "" };
    case "tool_use":
    case "server_tool_use":
      return { type: "tool_use", id: str(b.id) ?? "", name: str(b.name) ?? "", input: b.input };
    case "tool_result":
      return {
        type: "tool_result",
        toolUseId: str(b.tool_use_id) ?? "",
        isError: b.is_error === true,
        text: contentBlocks(b.content)
          .map((c) => (c.type === "text" ? c.text : ""))
          .join(""),
      };
    default:
      return { type: "other", blockType: str(b.type) ?? "unknown" };
  }
}

export function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

export function streamPart(event: unknown): StreamPart {
  if (!isRec(event)) return { type: "other", eventType: "unknown" };
  const index = num(event.index) ?? 0;
  switch (event.type) {
    case "message_start": {
      const id = isRec(event.message) ? str(event.message.id) : undefined;
      return id === undefined
        ? { type: "other", eventType: "message_start" }
        : { type: "message_start", messageId: id };
    }
    case "content_block_start":
      return {
        type: "content_block_start",
        index,
        block: isRec(event.content_block)
          ? contentBlock(event.content_block)
          : { type: "other", blockType: "unknown" },
      };
    case "content_block_delta":
      return { type: "content_block_delta", index, delta: blockDelta(event.delta) };
    case "content_block_stop":
      return { type: "content_block_stop", index };
    case "message_delta": {
      const stopReason = isRec(event.delta) ? str(event.delta.stop_reason) : undefined;
      return { type: "message_delta", stopReason: stopReason ?? null };
    }
    case "message_stop":
      return { type: "message_stop" };
    case "ping":
      return { type: "ping" };
    default:
      return { type: "other", eventType: str(event.type) ?? "unknown" };
  }
}

function blockDelta(delta: unknown): BlockDelta {
  if (!isRec(delta)) return { type: "other", deltaType: "unknown" };
  switch (delta.type) {
    case "text_delta":
      return { type: "text", text: str(delta.text) ?? "" };
    case "thinking_delta":
      return { type: "thinking", thinking: str(delta.thinking) ?? "" };
    case "input_json_delta":
      return { type: "input_json", partialJson: str(delta.partial_json) ?? "" };
    default:
      return { type: "other", deltaType: str(delta.type) ?? "unknown" };
  }
}
