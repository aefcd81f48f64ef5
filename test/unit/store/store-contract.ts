/** The behaviour every database store must have, run against SQLite and PostgreSQL. */
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { TaskState, type AgentCard, type Task } from "@a2a-js/sdk";
import {
  DefaultRequestHandler,
  ServerCallContext,
  type AgentExecutor,
  type User,
} from "@a2a-js/sdk/server";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EVERY_TASK } from "../../support/harness/messages.js";
import { INBOX_DIR } from "../../../src/workspace/inbox.js";
import { CallerUser } from "../../../src/identity/caller.js";
import { KIND } from "../../../src/contract/kinds.js";
import { agentMessage, textPart } from "../../../src/contract/messages.js";
import { TEXT } from "../../../src/contract/texts.js";
import { OWNER_KEY } from "../../../src/contract/operator.js";
import { EVERY_OWNER_STATE_KEY } from "../../../src/identity/operators.js";
import { DAY_MS } from "../../../src/store/retention.js";
import {
  openTaskStores,
  type StoreConfig,
  type TaskStores,
} from "../../../src/store/task-stores.js";

const logger = pino({ level: "silent" });

/** A user by its raw scope name, as stores saw logins before scopes were prefixed. */
class LegacyLogin implements User {
  constructor(readonly userName: string) {}
  get isAuthenticated() {
    return true;
  }
}
/** A call by the user whose raw scope name is `name` (in `tenant`, when given). */
export const rawCaller = (name: string, tenant?: string) =>
  new ServerCallContext({
    user: new LegacyLogin(name),
    ...(tenant === undefined ? {} : { tenant }),
  });
export const as = (login: string) =>
  new ServerCallContext({ user: new CallerUser({ kind: "login", login }) });
const anonymous = new ServerCallContext();
const alice = as("alice");
const subject = new ServerCallContext({ user: new CallerUser({ kind: "oidc", subject: "u-1" }) });

export function task(
  id: string,
  state: TaskState,
  o: { contextId?: string; at?: Date; history?: number; artifacts?: number } = {},
): Task {
  const ref = { taskId: id, contextId: o.contextId ?? "ctx-1" };
  return {
    id,
    contextId: ref.contextId,
    status: { state, message: undefined, timestamp: (o.at ?? new Date()).toISOString() },
    history: Array.from({ length: o.history ?? 2 }, (_, i) =>
      agentMessage(ref, [textPart(`message ${i + 1}`)]),
    ),
    artifacts: Array.from({ length: o.artifacts ?? 1 }, (_, i) => ({
      artifactId: `a-${i}`,
      name: "answer",
      description: "",
      parts: [textPart("artifact text")],
      metadata: undefined,
      extensions: [],
    })),
    metadata: {},
  };
}

// ListTasks goes through the SDK's handler, as a client's request does (historyLength is applied
// there); the executor is never called.
/** A push config of task `taskId`, as a client sets it. */
const pushConfig = (taskId: string, id: string, url: string, token = "") => ({
  tenant: "",
  id,
  taskId,
  url,
  token,
  authentication: undefined,
});

const handlerFor = (stores: TaskStores) =>
  new DefaultRequestHandler(
    { name: "t", capabilities: {} } as unknown as AgentCard,
    stores.taskStore,
    {} as AgentExecutor,
    undefined,
    stores.pushStore,
  );

const listParams = EVERY_TASK;

export interface ContractTarget {
  /** A config naming a fresh, empty database (the same one on every call within a test). */
  config(): StoreConfig;
  /** The workspace (inbox folders). */
  readonly cwd: () => string;
  /** Per-test setup and teardown of the database. */
  beforeEach?(): Promise<void>;
  afterEach?(): Promise<void>;
}

/**
 * Registers `target`'s per-test setup and teardown; `openStores` opens stores on its database
 * (`open` lists them), and every store a test opened is closed after it.
 */
export function useTargetStores(target: ContractTarget, o: { operators?: boolean } = {}) {
  const open: TaskStores[] = [];
  const openStores = async (store = target.config()) => {
    const stores = await openTaskStores({ store, cwd: target.cwd(), logger, ...o });
    open.push(stores);
    return stores;
  };
  beforeEach(async () => {
    await target.beforeEach?.();
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    await target.afterEach?.();
  });
  return { open, openStores };
}

export function describeStoreContract(name: string, target: ContractTarget): void {
  describe(`${name} task store`, () => {
    // With the operator indexes: made at the first open, kept at the next (both dialects).
    const { open, openStores } = useTargetStores(target, { operators: true });

    it("migrates at startup, keeps tasks and push configs across a restart, and answers ping", async () => {
      const first = await openStores();
      await first.ping();
      await first.taskStore.save(task("t-done", TaskState.TASK_STATE_COMPLETED), alice);
      await first.pushStore.save(
        "t-done",
        alice,
        pushConfig("t-done", "cfg-1", "http://127.0.0.1:9/hook", "secret"),
      );
      await first.close();
      open.length = 0;

      const second = await openStores();
      expect((await second.taskStore.load("t-done", alice))?.status?.state).toBe(
        TaskState.TASK_STATE_COMPLETED,
      );
      expect(await second.taskStore.load("t-done", as("bob"))).toBeUndefined();
      const configs = await second.pushStore.load("t-done", alice);
      expect(configs.map((c) => [c.id, c.url])).toEqual([["cfg-1", "http://127.0.0.1:9/hook"]]);
    });

    it("moves tasks and push configs of a bare login scope to login:<login>; anonymous ones stay", async () => {
      const first = await openStores();
      const legacy = rawCaller("ada@example.com");
      await first.taskStore.save(task("t-ada", TaskState.TASK_STATE_COMPLETED), legacy);
      await first.pushStore.save(
        "t-ada",
        legacy,
        pushConfig("t-ada", "cfg-ada", "https://example.com/hook"),
      );
      await first.taskStore.save(task("t-anon", TaskState.TASK_STATE_COMPLETED), anonymous);
      await first.taskStore.save(task("t-alice", TaskState.TASK_STATE_COMPLETED), alice);
      await first.taskStore.save(task("t-sub", TaskState.TASK_STATE_COMPLETED), subject);
      await first.close();
      open.length = 0;

      for (let reopen = 0; reopen < 2; reopen++) {
        const stores = await openStores();
        expect(await stores.taskStore.load("t-ada", as("ada@example.com"))).toBeDefined();
        expect(await stores.taskStore.load("t-ada", legacy)).toBeUndefined();
        const configs = await stores.pushStore.load("t-ada", as("ada@example.com"));
        expect(configs.map((c) => c.id)).toEqual(["cfg-ada"]);
        expect(await stores.taskStore.load("t-anon", anonymous)).toBeDefined();
        expect(await stores.taskStore.load("t-alice", alice)).toBeDefined();
        expect(await stores.taskStore.load("t-alice", as("login:alice"))).toBeUndefined();
        // An OIDC subject's scope is no bare login: it stays where it is.
        expect(await stores.taskStore.load("t-sub", subject)).toBeDefined();
        await stores.close();
        open.length = 0;
      }
    });

    // ListTasks: its own group of the shared suite (test/support/store-cases.ts), every backend.

    it("a restart fails the tasks left submitted, working or input-required, and nothing else", async () => {
      const first = await openStores();
      const before = new Date(Date.now() - 5_000);
      await first.taskStore.save(task("t-sub", TaskState.TASK_STATE_SUBMITTED), alice);
      await first.taskStore.save(task("t-work", TaskState.TASK_STATE_WORKING), as("bob"));
      await first.taskStore.save(task("t-park", TaskState.TASK_STATE_INPUT_REQUIRED), alice);
      const done = task("t-done", TaskState.TASK_STATE_COMPLETED, { at: before });
      await first.taskStore.save(done, alice);
      await first.close();
      open.length = 0;

      const second = await openStores();
      expect([...second.recovered].sort()).toEqual(["t-park", "t-sub", "t-work"]);
      const check = async (id: string, who: ServerCallContext, text: string) => {
        const t = await second.taskStore.load(id, who);
        expect(t?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
        expect(t?.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
        expect(t?.status?.message?.parts[0]?.content).toEqual({ $case: "text", value: text });
        // The message is in the history too, after what was there; artifacts are kept.
        expect(t?.history).toHaveLength(3);
        expect(t?.history.at(-1)?.messageId).toBe(t?.status?.message?.messageId);
        expect(t?.artifacts).toHaveLength(1);
      };
      await check("t-sub", alice, TEXT.restartedWhileRunning);
      await check("t-work", as("bob"), TEXT.restartedWhileRunning);
      await check("t-park", alice, TEXT.restartedWhileParked);
      expect(await second.taskStore.load("t-done", alice)).toEqual(done);
      await second.close();
      open.length = 0;
      // A third start finds nothing left to fail.
      expect((await openStores()).recovered).toEqual([]);
    });

    it("retention prunes terminal tasks older than retainDays with their inbox folder and push configs", async () => {
      const first = await openStores();
      const old = new Date(Date.now() - 31 * DAY_MS);
      await first.taskStore.save(task("t-old", TaskState.TASK_STATE_COMPLETED, { at: old }), alice);
      await first.taskStore.save(
        task("t-old-failed", TaskState.TASK_STATE_FAILED, { at: old }),
        alice,
      );
      await first.taskStore.save(task("t-new", TaskState.TASK_STATE_COMPLETED), alice);
      // A task left working that long ago is failed by the restart (now), then kept.
      await first.taskStore.save(
        task("t-old-working", TaskState.TASK_STATE_WORKING, { at: old }),
        alice,
      );
      await first.pushStore.save(
        "t-old",
        alice,
        pushConfig("t-old", "cfg", "http://127.0.0.1:9/hook"),
      );
      const inbox = (id: string) => join(target.cwd(), INBOX_DIR, id);
      for (const id of ["t-old", "t-new"]) await mkdir(inbox(id), { recursive: true });
      await first.close();
      open.length = 0;

      const second = await openStores();
      expect(await second.taskStore.load("t-old", alice)).toBeUndefined();
      expect(await second.taskStore.load("t-old-failed", alice)).toBeUndefined();
      expect(await second.pushStore.load("t-old", alice)).toEqual([]);
      await expect(stat(inbox("t-old"))).rejects.toThrow(/ENOENT/);
      expect((await second.taskStore.load("t-new", alice))?.id).toBe("t-new");
      expect((await stat(inbox("t-new"))).isDirectory()).toBe(true);
      expect((await second.taskStore.load("t-old-working", alice))?.status?.state).toBe(
        TaskState.TASK_STATE_FAILED,
      );
    });

    it("retainDays 0 keeps everything", async () => {
      const config = { ...target.config(), retainDays: 0 } as StoreConfig;
      const first = await openStores(config);
      const old = new Date(Date.now() - 400 * DAY_MS);
      await first.taskStore.save(task("t-old", TaskState.TASK_STATE_COMPLETED, { at: old }), alice);
      await first.close();
      open.length = 0;
      const second = await openStores(config);
      expect((await second.taskStore.load("t-old", alice))?.id).toBe("t-old");
    });
  });
}

/** Times `s` seconds after a minute ago: tasks saved in a known order, all in the past. */
function minuteAgoPlus(): (s: number) => Date {
  const base = Date.now() - 60_000;
  return (s) => new Date(base + s * 1000);
}

/**
 * ListTasks on a store: pagination, filters, caller scoping, historyLength and includeArtifacts.
 * Every store runs it, the memory one too (docs/storage.md: they work on every store).
 */
export function describeListTasks(openStores: () => Promise<TaskStores>): void {
  it("ListTasks: newest first, pages by token, filters by context, status and time, scoped to the caller", async () => {
    const stores = await openStores();
    const at = minuteAgoPlus();
    await stores.taskStore.save(task("t1", TaskState.TASK_STATE_COMPLETED, { at: at(1) }), alice);
    await stores.taskStore.save(
      task("t2", TaskState.TASK_STATE_FAILED, { at: at(2), contextId: "ctx-2" }),
      alice,
    );
    await stores.taskStore.save(task("t3", TaskState.TASK_STATE_COMPLETED, { at: at(3) }), alice);
    await stores.taskStore.save(task("t4", TaskState.TASK_STATE_CANCELED, { at: at(4) }), alice);
    await stores.taskStore.save(task("t5", TaskState.TASK_STATE_COMPLETED, { at: at(5) }), alice);
    await stores.taskStore.save(task("bob-1", TaskState.TASK_STATE_COMPLETED), as("bob"));
    const handler = handlerFor(stores);

    const ids: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const page = await handler.listTasks({ ...listParams, pageSize: 2, pageToken }, alice);
      expect(page.totalSize).toBe(5);
      ids.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken !== "");
    expect(ids).toEqual(["t5", "t4", "t3", "t2", "t1"]);
    expect(pages).toBe(3);

    const byContext = await handler.listTasks({ ...listParams, contextId: "ctx-2" }, alice);
    expect(byContext.tasks.map((t) => t.id)).toEqual(["t2"]);
    const byStatus = await handler.listTasks(
      { ...listParams, status: TaskState.TASK_STATE_COMPLETED },
      alice,
    );
    expect(byStatus.tasks.map((t) => t.id)).toEqual(["t5", "t3", "t1"]);
    const recent = await handler.listTasks(
      { ...listParams, statusTimestampAfter: at(3).toISOString() },
      alice,
    );
    expect(recent.tasks.map((t) => t.id)).toEqual(["t5", "t4"]);
    const bobs = await handler.listTasks(listParams, as("bob"));
    expect(bobs.tasks.map((t) => t.id)).toEqual(["bob-1"]);
  });

  it("ListTasks: historyLength and includeArtifacts", async () => {
    const stores = await openStores();
    await stores.taskStore.save(
      task("t1", TaskState.TASK_STATE_COMPLETED, { history: 3, artifacts: 2 }),
      alice,
    );
    const handler = handlerFor(stores);
    const plain = (await handler.listTasks(listParams, alice)).tasks[0];
    expect(plain?.artifacts).toEqual([]);
    expect(plain?.history).toHaveLength(3);
    const full = (
      await handler.listTasks({ ...listParams, includeArtifacts: true, historyLength: 1 }, alice)
    ).tasks[0];
    expect(full?.artifacts.map((a) => a.artifactId)).toEqual(["a-0", "a-1"]);
    expect(full?.history.map((m) => m.parts[0]?.content)).toEqual([
      { $case: "text", value: "message 3" },
    ]);
    const none = (await handler.listTasks({ ...listParams, historyLength: 0 }, alice)).tasks[0];
    expect(none?.history).toEqual([]);
  });

  it("an operator's ListTasks spans every caller, each task naming its owner; ownerOf finds any task's scope", async () => {
    const stores = await openStores();
    const at = minuteAgoPlus();
    await stores.taskStore.save(task("a-1", TaskState.TASK_STATE_COMPLETED, { at: at(1) }), alice);
    await stores.taskStore.save(
      task("b-1", TaskState.TASK_STATE_FAILED, { at: at(2), contextId: "ctx-2" }),
      as("bob"),
    );
    await stores.taskStore.save(
      task("s-1", TaskState.TASK_STATE_COMPLETED, { at: at(3) }),
      subject,
    );
    await stores.taskStore.save(
      task("n-1", TaskState.TASK_STATE_COMPLETED, { at: at(4) }),
      anonymous,
    );
    const handler = handlerFor(stores);
    const everyOwner = () =>
      new ServerCallContext({
        user: new CallerUser({ kind: "token", name: "ops" }),
        state: new Map([[EVERY_OWNER_STATE_KEY, true]]),
      });

    const seen: [string, unknown][] = [];
    let pageToken = "";
    do {
      const page = await handler.listTasks({ ...listParams, pageSize: 3, pageToken }, everyOwner());
      expect(page.totalSize).toBe(4);
      seen.push(...page.tasks.map((t): [string, unknown] => [t.id, t.metadata?.[OWNER_KEY]]));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(seen).toEqual([
      ["n-1", "unknown"],
      ["s-1", "oidc:u-1"],
      ["b-1", "login:bob"],
      ["a-1", "login:alice"],
    ]);
    const failed = await handler.listTasks(
      { ...listParams, status: TaskState.TASK_STATE_FAILED, historyLength: 0 },
      everyOwner(),
    );
    expect(failed.tasks.map((t) => [t.id, t.history])).toEqual([["b-1", []]]);
    const byContext = await handler.listTasks({ ...listParams, contextId: "ctx-2" }, everyOwner());
    expect(byContext.tasks.map((t) => t.id)).toEqual(["b-1"]);
    // Without the marker, the same caller lists its own tasks only (none), as before.
    const ops = new ServerCallContext({ user: new CallerUser({ kind: "token", name: "ops" }) });
    expect((await handler.listTasks(listParams, ops)).tasks).toEqual([]);
    // What a caller's own ListTasks returns is unchanged: no owner key.
    const own = await handler.listTasks(listParams, alice);
    expect(own.tasks.map((t): unknown => t.metadata?.[OWNER_KEY])).toEqual([undefined]);

    expect(await stores.everyOwner.ownerOf("a-1", "")).toBe("login:alice");
    expect(await stores.everyOwner.ownerOf("s-1", "")).toBe("oidc:u-1");
    expect(await stores.everyOwner.ownerOf("n-1", "")).toBe("unknown");
    expect(await stores.everyOwner.ownerOf("nope", "")).toBeUndefined();
    expect(await stores.everyOwner.ownerOf("a-1", "other-tenant")).toBeUndefined();
  });
}
