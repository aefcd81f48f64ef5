/**
 * The control extension's tests: a client that activates it, the scripted model's view, and the
 * script of steering (a slow command the test releases). Planning's script is `planning.ts`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { CONTROL_EXTENSION_URI } from "../../../src/contract/control.js";
import { idsOf } from "../a2a/stream-view.js";
import type { TestBench } from "../bench.js";
import type { A2AHarness } from "./in-process.js";
import { sendRequest, userMessage } from "./messages.js";
import { reply, text, toolUse, type Rule } from "./model.js";

/** A `fetch` whose every request names the control extension (the `A2A-Extensions` header). */
export const withControl: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("A2A-Extensions", CONTROL_EXTENSION_URI);
  return fetch(input, { ...init, headers });
};

/** A scripted-model request whose body holds `needle` (e.g. a steering message reached it). */
export const bodyHas =
  (needle: string) =>
  (req: { body: unknown }): boolean =>
    JSON.stringify(req.body).includes(needle);

/** The steering message of the steering tests. */
export const STEER = "Also update the changelog.";
export const STEERED_ANSWER = "Built it, and updated the changelog as you asked.";
/** A Bash command that runs until the test creates `release` (`releaseBash`): no timing. */
export const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done; echo bash-done > finished";

/**
 * "Build the release" runs SLOW_BASH; a request that carries STEER gets `steered`, one that does
 * not (the command's result alone) "Built it.".
 */
export const slowBashRules = (steered = STEERED_ANSWER): Rule[] => [
  { name: "steered answer", match: { when: bodyHas(STEER) }, reply: reply(text(steered)) },
  {
    name: "build",
    match: { lastUserText: "Build the release", toolResult: false },
    reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
  },
  { name: "built", match: { toolResult: true }, reply: reply(text("Built it.")) },
];

/** Ends SLOW_BASH in the bench's workspace. */
export const releaseBash = (h: { bench: TestBench }): Promise<void> =>
  writeFile(join(h.bench.sandbox.cwd, "release"), "");

/** A status update of a tool call (the slow command is running). */
export const isToolUse = (e: StreamResponse): boolean =>
  e.payload?.$case === "statusUpdate" &&
  e.payload.value.status?.message?.metadata?.kind === "tool_use";

/** The runtime's frame saying it read a user message and queued it for the running turn. */
export const isQueuedCommand = (frame: unknown): boolean => {
  const f = frame as { type?: string; state?: string };
  return f.type === "command_lifecycle" && f.state === "queued";
};

/** Until the runtime has queued a message for the running turn (bounded: the test's timeout). */
export async function untilQueued(h: { frames: readonly SDKMessage[] }): Promise<void> {
  while (!h.frames.some(isQueuedCommand)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** "Build the release" streamed on `h`'s client (in `ids`' context), once its slow command runs. */
export async function startBuild(h: A2AHarness, ids?: { contextId: string }) {
  const stream = h.watch("Build the release", ids);
  await stream.first(isToolUse);
  return { stream, ids: idsOf(stream.items) };
}

/** A blocking send of `message` (STEER by default) to the task of `ids`: a steer while it works. */
export const steer = (
  client: Client,
  ids: { taskId: string; contextId: string },
  message = STEER,
  metadata?: Record<string, unknown>,
) =>
  client.sendMessage(sendRequest({ ...userMessage(message, ids), ...(metadata && { metadata }) }));
