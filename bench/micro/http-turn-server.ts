/**
 * The server side of `http-turn.ts`, one process per build: that build's HTTP app
 * (`createHttpApp`: the request line, the auth gate, the body parser, the guards, the SDK's
 * JSON-RPC transport) on 127.0.0.1, in front of its guarded request handler and store stack on
 * SQLite, with a fake executor that publishes what a warm 5-chunk turn publishes (task, working,
 * three text artifacts, the result status, completed) and no Claude Code. JSON log lines at
 * info to standard output, as the server writes them. Sends `{ url }` over IPC once listening;
 * on `"profile"` starts V8's CPU profiler, written at `"exit"` to the file `HTTP_TURN_PROFILE_FILE`
 * names. `http-turn.ts` runs it as plain JavaScript (esbuild's transform of this file: every
 * import but node's is a type), as node runs the server, without tsx's hooks.
 *
 *   node http-turn-server.mjs <checkout> [module whose createHttpApp to run instead]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Role, SendMessageRequest, StreamResponse } from "@a2a-js/sdk";
import type * as SdkServer from "@a2a-js/sdk/server";
import type { ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type * as App from "../../src/http/app.js";
import type * as ClientErrors from "../../src/http/client-errors.js";
import type * as Logging from "../../src/common/logging.js";
import type * as Bus from "../../src/a2a/channel/bus-manager.js";
import type * as Stores from "../../src/store/task-stores.js";
import type * as Terminal from "../../src/store/terminal-task-store.js";
import type * as Exchanged from "../../src/store/exchanged-history-store.js";
import type * as Push from "../../src/a2a/push/sender.js";
import type * as Card from "../../src/a2a/card/agent-card.js";
import type * as Config from "../../src/config/load.js";
import type * as Messages from "../../src/contract/messages.js";
import type * as Statuses from "../../src/contract/statuses.js";
import type * as Usage from "../../src/contract/usage.js";
import { builtPath } from "./built-path.js";
import { guardedHandlerOf } from "./guarded-handler.js";

const root = resolve(process.argv[2] ?? "");
/** A module of the build, typed as this checkout's source declares it. */
const load = <T>(path: string): Promise<T> => import(builtPath(root, path)) as Promise<T>;

const [app, clientErrors, logging, bus, stores, terminal, exchanged, push] = await Promise.all([
  load<typeof App>("http/app.js"),
  load<typeof ClientErrors>("http/client-errors.js"),
  load<typeof Logging>("common/logging.js"),
  load<typeof Bus>("a2a/channel/bus-manager.js"),
  load<typeof Stores>("store/task-stores.js"),
  load<typeof Terminal>("store/terminal-task-store.js"),
  load<typeof Exchanged>("store/exchanged-history-store.js"),
  load<typeof Push>("a2a/push/sender.js"),
]);
const [sdkServer, card, config, messages, statuses, usage] = await Promise.all([
  // From the build's own packages (this file runs from a scratch directory).
  load<typeof SdkServer>("../node_modules/@a2a-js/sdk/dist/server/index.js"),
  load<typeof Card>("a2a/card/agent-card.js"),
  load<typeof Config>("config/load.js"),
  load<typeof Messages>("contract/messages.js"),
  load<typeof Statuses>("contract/statuses.js"),
  load<typeof Usage>("contract/usage.js"),
]);

const logger = logging.createLogger({ level: "info", format: "json" });
const http = createServer();
http.listen(0, "127.0.0.1");
await once(http, "listening");
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

const cwd = mkdtempSync(join(tmpdir(), "http-turn-"));
const cfg = config.resolveConfig(
  { server: { publicUrl: url } },
  { file: join(cwd, "c.json"), startDir: cwd },
);
const opened = await stores.openTaskStores({ store: cfg.store, cwd, logger });
const taskStore = new exchanged.ExchangedHistoryStore(
  new terminal.TerminalTaskStore(opened.taskStore, logger),
);
const ref = (ctx: RequestContext) => ({ taskId: ctx.taskId, contextId: ctx.contextId });
const executor = {
  isActive: () => false,
  liveState: () => undefined,
  claimAnswer: () => undefined,
  releaseClaim: () => undefined,
  takeRefusal: () => undefined,
  cancelTask: () => Promise.resolve(),
  // What a warm turn publishes, each event in a macrotask of its own, as each comes from its
  // own read of Claude Code's output.
  execute: async (ctx: RequestContext, b: ExecutionEventBus) => {
    const r = ref(ctx);
    const chunks = ["Hello", " from the", " scripted model."];
    const completed = statuses.status.completed(r);
    const events = [
      { kind: "task", data: messages.newTask(r, ctx.userMessage) },
      { kind: "statusUpdate", data: statuses.status.working(r) },
      ...chunks.map((chunk, i) => ({
        kind: "artifactUpdate",
        data: {
          ...r,
          artifact: messages.artifact(
            `response-${r.taskId}`,
            "response",
            [messages.textPart(chunk)],
            {},
          ),
          append: i > 0,
          lastChunk: false,
          metadata: undefined,
        },
      })),
      { kind: "statusUpdate", data: statuses.status.result(r, chunks.join("")) },
      {
        kind: "statusUpdate",
        data: { ...completed, metadata: usage.usageMetadata(usage.EMPTY_USAGE) },
      },
    ] as Parameters<ExecutionEventBus["publish"]>[0][];
    for (const event of events) {
      b.publish(event);
      await new Promise((done) => setImmediate(done));
    }
  },
};
const agentCard = card.buildAgentCard(cfg, { version: "0.0.0" });
const requestHandler = await guardedHandlerOf(root, {
  card: agentCard,
  taskStore,
  executor,
  busManager: new bus.TaskBusManager(() => false),
  pushStore: opened.pushStore,
  pushSender: new push.RetryingPushSender(opened.pushStore, logger),
});
const httpLogger = logger.child({ component: "http" });
const served =
  process.env.HTTP_TURN_HANDLER === "stub" ? await stubOf(requestHandler) : requestHandler;
const appOptions = {
  card: agentCard,
  requestHandler: served,
  bodyLimit: cfg.server.bodyLimit,
  trustedProxies: cfg.server.trustedProxies,
  logger: httpLogger,
};
// An ablation: another module's `createHttpApp` with the same options (argv[3], a file path).
const variant = process.argv[3];
const createApp =
  variant === undefined
    ? app.createHttpApp
    : ((await import(resolve(variant))) as typeof App).createHttpApp;
http.on("request", createApp(appOptions));
clientErrors.answerClientErrorsAsJson(http, httpLogger);

/**
 * `HTTP_TURN_HANDLER=stub`: the request handler replays one turn recorded at start (the blocking
 * answer, the streamed events, each in its own macrotask), so the server's CPU is HTTP's alone.
 */
async function stubOf(h: typeof requestHandler): Promise<typeof requestHandler> {
  const ctx = new sdkServer.ServerCallContext();
  const request = (): SendMessageRequest => ({
    tenant: "",
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId: "",
      role: 1 satisfies Role.ROLE_USER,
      parts: [
        {
          content: { $case: "text", value: "Say hello." },
          mediaType: "",
          filename: "",
          metadata: {},
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });
  const answer = await h.sendMessage(request(), ctx);
  const events: StreamResponse[] = [];
  for await (const e of h.sendMessageStream(request(), ctx)) events.push(e);
  const stub = Object.create(h) as typeof requestHandler;
  stub.sendMessage = () => Promise.resolve(answer);
  stub.sendMessageStream = async function* () {
    for (const e of events) {
      await new Promise((done) => setImmediate(done));
      yield e;
    }
  };
  return stub;
}

const profiler = new Session();
let profiling = false;
async function exit(): Promise<void> {
  const file = process.env.HTTP_TURN_PROFILE_FILE;
  if (profiling && file !== undefined) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
  }
  http.closeAllConnections();
  http.close();
  await opened.close().finally(() => {
    rmSync(cwd, { recursive: true, force: true });
    process.exit(0);
  });
}
process.on("message", (m) => {
  if (m === "exit") void exit();
  if (m !== "profile") return;
  profiler.connect();
  profiling = true;
  void profiler.post("Profiler.enable").then(() => profiler.post("Profiler.start"));
});
process.send?.({ url });
