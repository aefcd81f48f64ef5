import type { MessageReply } from "./types.js";

export interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
  /** True for deltas: the server waits `chunkDelayMs` before sending these. */
  readonly delayed: boolean;
}

export interface IdSource {
  messageId(): string;
  toolUseId(): string;
}

function chunks(s: string, size: number | undefined): string[] {
  if (size === undefined || size <= 0 || s.length <= size) return [s];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const usage = (output: number) => ({
  input_tokens: 10,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

/** The Anthropic Messages API streaming events for one reply, in order. */
export function messageEvents(reply: MessageReply, model: string, ids: IdSource): SseEvent[] {
  const id = reply.messageId ?? ids.messageId();
  const hasToolUse = reply.content.some((b) => b.type === "tool_use");
  const events: SseEvent[] = [];
  const push = (event: string, data: Record<string, unknown>, delayed = false) =>
    events.push({ event, data: { type: event, ...data }, delayed });

  push("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(1),
    },
  });
  push("ping", {});
  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      push("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of chunks(block.text, reply.chunkSize)) {
        push("content_block_delta", { index, delta: { type: "text_delta", text: piece } }, true);
      }
    } else {
      push("content_block_start", {
        index,
        content_block: {
          type: "tool_use",
          id: block.id ?? ids.toolUseId(),
          name: block.name,
          input: {},
        },
      });
      for (const piece of chunks(JSON.stringify(block.input), reply.chunkSize)) {
        push(
          "content_block_delta",
          { index, delta: { type: "input_json_delta", partial_json: piece } },
          true,
        );
      }
    }
    push("content_block_stop", { index });
  });
  push("message_delta", {
    delta: {
      stop_reason: reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
      stop_sequence: null,
    },
    usage: { output_tokens: 20 },
  });
  push("message_stop", {});
  return events;
}

/** The same reply as a non-streaming JSON body (`stream: false`). */
export function messageJson(
  reply: MessageReply,
  model: string,
  ids: IdSource,
): Record<string, unknown> {
  const hasToolUse = reply.content.some((b) => b.type === "tool_use");
  return {
    id: reply.messageId ?? ids.messageId(),
    type: "message",
    role: "assistant",
    model,
    content: reply.content.map((b) =>
      b.type === "text"
        ? { type: "text", text: b.text }
        : { type: "tool_use", id: b.id ?? ids.toolUseId(), name: b.name, input: b.input },
    ),
    stop_reason: reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: usage(20),
  };
}

export const encodeSse = (e: SseEvent): string =>
  `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
