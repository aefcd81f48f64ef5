import { randomUUID } from "node:crypto";
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";

/**
 * A streaming-input prompt for `query()`: it stays open between turns, so one Claude Code
 * process serves the whole conversation, until `close()`.
 */
export class InputQueue implements AsyncIterable<SDKUserMessage> {
  private readonly pending: SDKUserMessage[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  /** Queues one user turn; returns the message uuid the runtime echoes as `user_message_uuid`. */
  push(text: string): string {
    const uuid = randomUUID();
    this.pending.push({
      type: "user",
      message: { role: "user", content: text },
      parent_tool_use_id: null,
      uuid,
    });
    this.wake?.();
    return uuid;
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      const next = this.pending.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
