/**
 * The SQLite store writes a task's progress behind (src/store/write-behind-task-store.ts): a
 * client that reads the task right after a streamed event must still see that event's effect,
 * through GetTask and ListTasks alike.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import {
  a2a,
  listRequest,
  reply,
  sendRequest,
  text,
  userMessage,
} from "../support/harness/index.js";

/** Submitted, working, then the end: a later state in this order is the effect plus more. */
const ORDER = [
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  TaskState.TASK_STATE_COMPLETED,
];
const rank = (state: TaskState | undefined) =>
  ORDER.indexOf(state ?? TaskState.TASK_STATE_UNSPECIFIED);
const artifactText = (task: Task | undefined) =>
  (task?.artifacts ?? [])
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");

describe("a read right after a streamed event sees it (SQLite store)", () => {
  it("GetTask and ListTasks after each event show its state and every chunk streamed so far", async () => {
    const answer = "chunk ".repeat(400);
    const h = await a2a({
      rules: [
        { match: { lastUserText: "Stream it" }, reply: reply(text(answer), { chunkSize: 3 }) },
      ],
      // Every chunk its own artifact event, so that many reads land between writes.
      config: { streaming: { flushMs: 1 } },
    });
    const client = h.client;
    let taskId = "";
    let contextId = "";
    const streamed = new Map<string, string>();
    let reads = 0;
    for await (const event of client.sendMessageStream(sendRequest(userMessage("Stream it")))) {
      const payload = event.payload;
      if (payload?.$case === "task") {
        taskId = payload.value.id;
        contextId = payload.value.contextId;
      }
      if (taskId === "") continue;
      const stored = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
      const listed = (await client.listTasks(listRequest(contextId))).tasks.find(
        (t) => t.id === taskId,
      );
      reads++;
      if (payload?.$case === "statusUpdate") {
        expect(rank(stored.status?.state)).toBeGreaterThanOrEqual(
          rank(payload.value.status?.state),
        );
        expect(rank(listed?.status?.state)).toBeGreaterThanOrEqual(
          rank(payload.value.status?.state),
        );
      }
      if (payload?.$case === "artifactUpdate" && payload.value.artifact) {
        const { artifactId, parts } = payload.value.artifact;
        const chunk = parts
          .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
          .join("");
        streamed.set(
          artifactId,
          (payload.value.append ? (streamed.get(artifactId) ?? "") : "") + chunk,
        );
        const kept = stored.artifacts.find((a) => a.artifactId === artifactId);
        expect(artifactText(kept && { ...stored, artifacts: [kept] })).toContain(
          streamed.get(artifactId),
        );
        // ListTasks without includeArtifacts: the state only.
        expect(listed).toBeDefined();
      }
    }
    expect(reads).toBeGreaterThan(2);
    const final = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(final.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(final)).toBe(answer);
  });
});
