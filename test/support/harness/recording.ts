import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { QueryHandle } from "../../../src/claude/index.js";

/** `handle`, recording each message it yields into `frames`. */
export function recording(handle: QueryHandle, frames: SDKMessage[]): QueryHandle {
  return {
    next: async () => {
      const step = await handle.next();
      if (step.done !== true) frames.push(step.value);
      return step;
    },
    interrupt: () => handle.interrupt(),
    stopTask: (taskId) => handle.stopTask(taskId),
    setModel: (model) => handle.setModel(model),
    applyFlagSettings: (settings) => handle.applyFlagSettings(settings),
    close: () => handle.close(),
  };
}
