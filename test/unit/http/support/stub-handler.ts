/** What the HTTP tests' stub request handlers share: the card they serve and a working task. */
import { TaskState, type Task } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { resolveConfig } from "../../../../src/config/load.js";

export const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

export const V1 = { "A2A-Version": "1.0" };
export const JSON_V1 = { ...V1, "content-type": "application/json" };

export const unsupported = (): never => {
  throw new UnsupportedOperationError("not in this stub");
};

/** A task in WORKING with nothing in it. */
export const workingTask = (id: string): Task => ({
  id,
  contextId: "ctx-1",
  status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata: {},
});
