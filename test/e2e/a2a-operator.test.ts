/**
 * The operator role (`server.operators`): three static tokens, `alice` and `bob` ordinary callers,
 * `ops` an operator. Bob cannot see Alice's task; ops sees, follows, answers and cancels it, Alice
 * is told in her stream who answered, and every operator answer and cancel is logged with the
 * operator's name. Real runtime, scripted model, the official client over HTTP (and gRPC) on
 * loopback.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Role, TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { connect } from "../../src/client/connect.js";
import { TEXT } from "../../src/contract/texts.js";
import {
  a2a,
  afterTool,
  asks,
  dataPart,
  failure,
  freePort,
  getTask,
  idsOf,
  lastStatus,
  listRequest,
  messageText,
  says,
  streamMessage,
  tokenEntries,
  watch,
  writes,
  type A2AHarness,
  type Rule,
} from "../support/harness/index.js";
import { captureLogs, sdkGrpcClient, type LogCapture } from "../support/grpc.js";
import { AUDIENCE, ISSUER, makeKey, mint } from "../support/oidc.js";

const TIMEOUT = 120_000;

const TOKEN = {
  alice: "alice-token-0123456789",
  ops: "ops-token-0123456789",
  bob: "bob-token-0123",
};
const TOKENS = tokenEntries(TOKEN);

interface Callers {
  readonly alice: Client;
  readonly ops: Client;
  readonly bob: Client;
  readonly logs: LogCapture;
  readonly outside: string;
  readonly h: A2AHarness;
}

/** A server with the three tokens and ops as its operator; a file path outside the workspace. */
async function start(rules: (outside: string) => Rule[], grpcPort?: number): Promise<Callers> {
  const logs = captureLogs();
  const h = await a2a({
    logger: logs.logger,
    config: {
      server: {
        auth: { tokens: TOKENS },
        operators: ["ops"],
        ...(grpcPort !== undefined && { grpc: { port: grpcPort } }),
      },
    },
  });
  const outside = join(h.bench.sandbox.root, "outside", "report.txt");
  await mkdir(join(h.bench.sandbox.root, "outside"));
  h.bench.model.setRules(rules(outside));
  const [alice, ops, bob] = await Promise.all(
    [TOKEN.alice, TOKEN.ops, TOKEN.bob].map((t) => connect(h.server.url, t)),
  );
  if (!alice || !ops || !bob) throw new Error("no client");
  return { alice, ops, bob, logs, outside, h };
}

const WRITE_OUTSIDE = (outside: string): Rule[] => [
  writes("Save the report", outside, "report\n", "write-outside"),
  afterTool(/created successfully/, "Saved.", "written"),
  ...asks("Paint the fence", { answer: /blue/, then: "Painting it blue." }),
  says("What did Alice ask?", "Nothing I know of."),
];

const everyTask = {
  ...listRequest(""),
  contextId: "",
};

/** The status updates of a stream whose message has this kind. */
const statusesOfKind = (events: readonly StreamResponse[], kind: string) =>
  events.flatMap((e) =>
    e.payload?.$case === "statusUpdate" && e.payload.value.status?.message?.metadata?.kind === kind
      ? [e.payload.value]
      : [],
  );

async function drain(items: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of items) void _;
}

describe("the operator role", () => {
  it(
    "bob cannot see alice's parked task; ops sees it, answers its permission request with allow, alice is told, the log names ops",
    async () => {
      const { alice, ops, bob, logs, outside } = await start(WRITE_OUTSIDE);
      const first = await streamMessage(alice, "Save the report");
      expect(lastStatus(first)).toMatchObject({
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        kind: "permission_request",
      });
      const { taskId, contextId } = idsOf(first);

      // Bob: exactly an unknown task, whatever he tries.
      for (const probe of [
        () => getTask(bob, taskId),
        () => drain(bob.resubscribeTask({ tenant: "", id: taskId })),
        () => bob.cancelTask({ tenant: "", id: taskId, metadata: undefined }),
        () => streamMessage(bob, "yes", { taskId, contextId }),
      ]) {
        expect(await failure(probe)).toMatch(/not found/i);
      }
      expect((await bob.listTasks(everyTask)).tasks).toEqual([]);

      // Ops: GetTask and ListTasks show it, with whose it is.
      const seen = await getTask(ops, taskId);
      expect(seen.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(seen.metadata?.owner).toBe("token:alice");
      const listed = await ops.listTasks(everyTask);
      expect(listed.tasks.map((t): unknown[] => [t.id, t.metadata?.owner])).toEqual([
        [taskId, "token:alice"],
      ]);
      // Alice's own view is unchanged: no owner key, her task only.
      expect((await getTask(alice, taskId)).metadata?.owner).toBeUndefined();

      // Alice follows her task; ops answers it.
      const alicesView = watch(alice.resubscribeTask({ tenant: "", id: taskId }));
      await alicesView.first((e) => e.payload?.$case === "task");
      // Ops follows it too (SubscribeToTask), from the parked task to its end.
      const opsView = watch(ops.resubscribeTask({ tenant: "", id: taskId }));
      const opsFirst = await opsView.first((e) => e.payload?.$case === "task");
      expect(opsFirst.payload?.$case === "task" && opsFirst.payload.value.id).toBe(taskId);
      const allow = dataPart({ kind: "permission_response", decision: "allow" });
      const answered = await streamMessage(ops, [allow], { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await readFile(outside, "utf8")).toBe("report\n");

      // Alice's stream says who answered, in the text and in the metadata.
      const aliceEvents = await alicesView.done;
      const resumed = statusesOfKind(aliceEvents, "resumed");
      expect(resumed).toHaveLength(1);
      expect(messageText(resumed[0]?.status?.message)).toBe(TEXT.resumedByOperator("ops"));
      expect(messageText(resumed[0]?.status?.message)).toBe(
        "Resumed with the answer of operator ops.",
      );
      expect(resumed[0]?.status?.message?.metadata).toEqual({
        kind: "resumed",
        answeredBy: "ops",
      });
      expect(lastStatus(aliceEvents).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const opsEvents = await opsView.done;
      expect(statusesOfKind(opsEvents, "resumed")).toHaveLength(1);
      expect(lastStatus(opsEvents).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const stored = await getTask(alice, taskId);
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // Her task's history keeps the answer with the name of who sent it.
      const answer = stored.history.find(
        (m) => m.role === Role.ROLE_USER && m.metadata?.answeredBy,
      );
      expect(answer?.metadata).toEqual({ answeredBy: "ops" });

      // The log names the operator and whose task it answered.
      const [line] = await logs.waitFor(
        (l) => l.msg === "operator answered a task of another caller",
      );
      expect(line).toMatchObject({
        level: 30,
        operator: "ops",
        owner: "token:alice",
        taskId,
        toolName: "Write",
        answer: "allow",
      });
    },
    TIMEOUT,
  );

  it(
    "ops cancels alice's task over HTTP+JSON (she reads who did); a new message of ops in her context is ops's own conversation",
    async () => {
      const { alice, ops, bob, logs, h } = await start(WRITE_OUTSIDE);
      const first = await streamMessage(alice, "Paint the fence", { contextId: "fence" });
      expect(lastStatus(first).kind).toBe("ask_user_question");
      const { taskId } = idsOf(first);

      // A new message of ops naming alice's context is no answer: it is ops's own conversation.
      const own = await streamMessage(ops, "What did Alice ask?", { contextId: "fence" });
      expect(lastStatus(own).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const opsRequest = h.bench.model.messageRequests.find((r) =>
        r.lastUserText.includes("What did Alice ask?"),
      );
      expect(JSON.stringify(opsRequest?.body)).not.toContain("Paint the fence");
      expect((await alice.listTasks(listRequest("fence"))).tasks.map((t) => t.id)).toEqual([
        taskId,
      ]);
      expect((await getTask(alice, taskId)).status?.state).toBe(
        TaskState.TASK_STATE_INPUT_REQUIRED,
      );

      expect(
        await failure(() => bob.cancelTask({ tenant: "", id: taskId, metadata: undefined })),
      ).toMatch(/not found/i);
      // Over HTTP+JSON this time: every binding serves the role.
      const url = h.server.url;
      const opsRest = await connect(url, TOKEN.ops, { transport: "rest" });
      const bobRest = await connect(url, TOKEN.bob, { transport: "rest" });
      expect(await failure(() => getTask(bobRest, taskId))).toMatch(/not found/i);
      expect((await getTask(opsRest, taskId)).metadata?.owner).toBe("token:alice");
      const canceled = await opsRest.cancelTask({ tenant: "", id: taskId, metadata: undefined });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      const stored = await getTask(alice, taskId);
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(messageText(stored.status?.message)).toBe("Task canceled by operator ops.");
      expect(stored.status?.message?.metadata).toEqual({ canceledBy: "ops" });

      const [line] = await logs.waitFor(
        (l) => l.msg === "operator canceled a task of another caller",
      );
      expect(line).toMatchObject({ level: 30, operator: "ops", owner: "token:alice", taskId });
    },
    TIMEOUT,
  );

  it(
    "over gRPC too: ops gets and answers alice's task, bob gets NOT_FOUND",
    async () => {
      const port = await freePort();
      const { alice, h } = await start(WRITE_OUTSIDE, port);
      const first = await streamMessage(alice, "Paint the fence");
      const { taskId, contextId } = idsOf(first);
      const url = h.server.url;
      const opsGrpc = await sdkGrpcClient(url, { token: TOKEN.ops });
      const bobGrpc = await sdkGrpcClient(url, { token: TOKEN.bob });
      expect(await failure(() => getTask(bobGrpc, taskId))).toMatch(/not found/i);
      expect((await getTask(opsGrpc, taskId)).metadata?.owner).toBe("token:alice");
      const answered = await streamMessage(opsGrpc, "blue", { taskId, contextId });
      const resumed = statusesOfKind(answered, "resumed");
      expect(resumed[0]?.status?.message?.metadata).toMatchObject({ answeredBy: "ops" });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
    },
    TIMEOUT,
  );

  it(
    "an OpenID Connect operator (oidc:<subject>) answers alice's question; another subject sees nothing",
    async () => {
      const key = await makeKey("idp-key-1");
      const h = await a2a({
        rules: WRITE_OUTSIDE(""),
        config: {
          server: {
            auth: {
              tokens: TOKENS,
              oidc: { issuer: ISSUER, audience: AUDIENCE, keys: [{ ...key.jwk, kty: "EC" }] },
            },
            operators: ["oidc:ada@example.com"],
          },
        },
      });
      const url = h.server.url;
      const alice = await connect(url, TOKEN.alice);
      const ada = await connect(url, await mint(key, { sub: "ada@example.com" }));
      const eve = await connect(url, await mint(key, { sub: "eve@example.com" }));
      const first = await streamMessage(alice, "Paint the fence");
      const { taskId, contextId } = idsOf(first);

      expect(await failure(() => getTask(eve, taskId))).toMatch(/not found/i);
      expect((await eve.listTasks(everyTask)).tasks).toEqual([]);
      expect((await ada.listTasks(everyTask)).tasks.map((t): unknown => t.metadata?.owner)).toEqual(
        ["token:alice"],
      );
      const answered = await streamMessage(ada, "blue", { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      // Named as logs name the caller: the subject itself.
      expect(statusesOfKind(answered, "resumed")[0]?.status?.message?.metadata).toEqual({
        kind: "resumed",
        answeredBy: "ada@example.com",
      });
    },
    TIMEOUT,
  );
});
