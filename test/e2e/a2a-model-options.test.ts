/**
 * A task's model and effort, and the Claude Code options the config passes through, against the
 * REAL runtime and the scripted model, through the official client: what a message may choose
 * reaches the model's request (and the live process switches back for the next task), what it
 * may not is refused before any task exists on every binding, and each passed-through option
 * shows in what the model is sent or in the runtime's init message.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { SDKSystemMessage } from "@anthropic-ai/claude-agent-sdk";
import { TASK_OPTIONS_EXTENSION_URI } from "../../src/contract/task-options.js";
import {
  a2a,
  afterTool,
  freePort,
  listRequest,
  messageText,
  partsText,
  postRpc,
  reply,
  sendForTask,
  sendRequest,
  temp,
  TEST_MODEL,
  text,
  toolUse,
  userMessage,
  type A2AHarness,
  type ParsedRequest,
} from "../support/harness/index.js";
import { sdkGrpcClient } from "../support/grpc.js";
import { mcpEchoServer } from "../support/mcp-echo-server.js";

const OPUS = "claude-opus-4-5";

const withMetadata = (message: Message, metadata: Record<string, unknown>): Message => ({
  ...message,
  metadata,
});

/** The model requests of the turn whose prompt was `prompt`. */
const requestsFor = (harness: A2AHarness, prompt: string): ParsedRequest[] =>
  harness.bench.model.requests.map((r) => r.request).filter((r) => r.lastUserText.includes(prompt));

const effortOf = (r: ParsedRequest | undefined): unknown =>
  (r?.body.output_config as { effort?: unknown } | undefined)?.effort;

const systemText = (r: ParsedRequest | undefined): string => JSON.stringify(r?.body.system ?? "");

/** Claude's answer: the text of the task's artifacts. */
const answerText = (task: Task): string => task.artifacts.map((a) => partsText(a.parts)).join("");

describe("per-task model and effort (real runtime)", () => {
  it("an allowed model and effort reach the model's request; a task asking for none runs the defaults again, in the same process", async () => {
    const h = await a2a({
      config: { claude: { allowedModels: [OPUS], allowedEfforts: ["high"] } },
      rules: [{ name: "any", match: {}, reply: reply(text("Done.")) }],
    });
    const card = await h.client.getAgentCard();
    const declared = card.capabilities?.extensions.find(
      (e) => e.uri === TASK_OPTIONS_EXTENSION_URI,
    );
    expect(declared?.params).toEqual({
      modelKey: "model",
      effortKey: "effort",
      models: [TEST_MODEL, OPUS],
      efforts: ["high"],
      defaultModel: TEST_MODEL,
    });

    // A new conversation: its process starts with the task's model and effort.
    const first = await sendForTask(
      h.client,
      withMetadata(userMessage("First task"), { model: OPUS, effort: "high" }),
    );
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [firstRequest] = requestsFor(h, "First task");
    expect(firstRequest?.model).toBe(OPUS);
    expect(effortOf(firstRequest)).toBe("high");

    // The same conversation asking for nothing: the live process switches back to the defaults.
    const second = await h.send("Second task", { contextId: first.contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [secondRequest] = requestsFor(h, "Second task");
    expect(secondRequest?.model).toBe(TEST_MODEL);
    // claude-sonnet-4-5 takes no effort parameter: the runtime sends none.
    expect(effortOf(secondRequest)).toBeUndefined();

    // And to the chosen model again, mid-conversation.
    const third = await sendForTask(
      h.client,
      withMetadata(userMessage("Third task", { contextId: first.contextId }), { model: OPUS }),
    );
    expect(third.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(requestsFor(h, "Third task").map((r) => r.model)).toEqual([OPUS]);
    expect(h.spawns()).toBe(1);
  });

  it("a model the runtime refuses to switch to fails its task, saying so; the conversation goes on", async () => {
    const BOGUS = "claude-bogus-9";
    const h = await a2a({
      config: { claude: { allowedModels: [BOGUS] } },
      rules: [
        {
          name: "no such model",
          match: { when: (r) => r.model === BOGUS },
          reply: { kind: "bad_request", message: `model: ${BOGUS} not found` },
        },
        { name: "any", match: {}, reply: reply(text("Done.")) },
      ],
    });
    const first = await h.send("First task");
    const refused = await sendForTask(
      h.client,
      withMetadata(userMessage("Bogus task", { contextId: first.contextId }), { model: BOGUS }),
    );
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    // The runtime checks the model with a request of its own before it switches.
    expect(messageText(refused.status?.message)).toMatch(
      new RegExp(`^Claude Code could not switch to model ${BOGUS}: .*${BOGUS} not found`),
    );
    const after = await h.send("After task", { contextId: first.contextId });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(requestsFor(h, "After task").map((r) => r.model)).toEqual([TEST_MODEL]);
  });

  it("a model or effort not allowed is refused with InvalidParams before any task exists, on JSON-RPC, REST and gRPC", async () => {
    const grpcPort = await freePort();
    const h = await a2a({
      config: {
        claude: { allowedModels: [OPUS] },
        server: { grpc: { port: grpcPort } },
      },
      rules: [{ name: "any", match: {}, reply: reply(text("Done.")) }],
    });
    const modelRefusal = `metadata.model "claude-opus-4-1" is not allowed on this server (claude.allowedModels); allowed: "${TEST_MODEL}", "${OPUS}".`;
    const effortRefusal =
      'metadata.effort "max" is not allowed on this server (claude.allowedEfforts); allowed: none.';

    await expect(
      h.client.sendMessage(
        sendRequest(withMetadata(userMessage("Hello"), { model: "claude-opus-4-1" })),
      ),
    ).rejects.toThrow(modelRefusal);

    const rpc = await postRpc(h.server.url, "SendMessage", {
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "Hello" }],
        metadata: { effort: "max" },
      },
    });
    expect(await rpc.json()).toMatchObject({ error: { code: -32602, message: effortRefusal } });

    const rest = await fetch(`${h.server.url}/a2a/rest/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({
        message: {
          messageId: crypto.randomUUID(),
          role: "ROLE_USER",
          parts: [{ text: "Hello" }],
          metadata: { model: "claude-opus-4-1" },
        },
      }),
    });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(await rest.json())).toContain(JSON.stringify(modelRefusal).slice(1, -1));

    const grpc = await sdkGrpcClient(h.server.url);
    await expect(
      grpc.sendMessage(sendRequest(withMetadata(userMessage("Hello"), { effort: "max" }))),
    ).rejects.toThrow(effortRefusal);

    expect((await h.client.listTasks(listRequest(""))).tasks).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
    expect(h.spawns()).toBe(0);
  });
});

describe("Claude options passed through (real runtime)", () => {
  it("systemPrompt.append, agents, mcpServers, effort, env and additionalDirectories reach the runtime", async () => {
    const extra = (await temp("claude-a2a-extra-dir-")).path;
    const h = await a2a({
      config: {
        claude: {
          model: OPUS,
          effort: "low",
          allowedTools: ["Bash"],
          systemPrompt: { append: "Always answer like a pirate." },
          agents: {
            reviewer: { description: "Reviews diffs for bugs", prompt: "You review diffs." },
          },
          mcpServers: { echo: mcpEchoServer() },
          additionalDirectories: [extra],
          env: { GREETING_WORD: "ahoy-from-config" },
        },
      },
      rules: [
        {
          name: "greet",
          match: { lastUserText: "Print the greeting", toolResult: false },
          reply: reply(toolUse("Bash", { command: "echo $GREETING_WORD", description: "Greet" })),
        },
        afterTool(/ahoy-from-config/, "Arr.", "greeted"),
      ],
    });
    const task = await h.send("Print the greeting");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe("Arr.");
    expect(h.bench.model.unmatched).toEqual([]);

    const [first] = requestsFor(h, "Print the greeting");
    expect(systemText(first)).toContain("Always answer like a pirate.");
    // The subagent is offered to the model (the runtime lists agents beside the Agent tool).
    expect(JSON.stringify(first?.body)).toContain("reviewer: Reviews diffs for bugs");
    expect(first?.toolNames).toContain("mcp__echo__echo");
    expect(first?.model).toBe(OPUS);
    expect(effortOf(first)).toBe("low");
    // env: the Bash the model ran printed the configured variable.
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual(["greet", "greeted"]);

    const init = h.frames.find(
      (f): f is SDKSystemMessage => f.type === "system" && f.subtype === "init",
    );
    expect(init?.mcp_servers).toContainEqual(
      expect.objectContaining({ name: "echo", status: "connected" }),
    );
    expect(init?.agents).toContain("reviewer");
    expect(
      (init as { additional_directories?: string[] } | undefined)?.additional_directories,
    ).toEqual([extra]);
  });

  it("fallbackModel: the runtime turns to it when the model is overloaded", async () => {
    const h = await a2a({
      config: { claude: { model: OPUS, fallbackModel: TEST_MODEL } },
      rules: [
        {
          name: "overloaded",
          match: { when: (r) => r.model === OPUS },
          reply: { kind: "overloaded" },
        },
        { name: "fallback", match: {}, reply: reply(text("The fallback answered.")) },
      ],
    });
    const task = await h.send("Hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe("The fallback answered.");
    const models = h.bench.model.requests.map((r) => r.request.model);
    expect(models[0]).toBe(OPUS);
    expect(models.at(-1)).toBe(TEST_MODEL);
  });
});
