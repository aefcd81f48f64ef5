/**
 * Why it is over 300 lines: the one place that wires a served directory's parts together (stores,
 * pool, executor, handler chain, card); each part is built elsewhere, only their order lives here.
 */
import type { AgentCard } from "@a2a-js/sdk";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { A2ARequestHandler, TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { TaskBusManager } from "../a2a/channel/bus-manager.js";
import { buildCards, extendedCardProvider } from "../a2a/card/cards.js";
import { allowedModes } from "../a2a/card/agent-card.js";
import { metricsCallerLabel } from "../identity/metrics-caller.js";
import { operatorScopes } from "../identity/operators.js";
import { ClaudeAgentExecutor } from "../a2a/routing/executor.js";
import type { NewTaskPolicy } from "../a2a/admission/new-task-guard.js";
import { AutonomousTasks } from "../a2a/routing/autonomous-tasks.js";
import { RunOwnership } from "../a2a/routing/run-ownership.js";
import { peersOf } from "../peers/peer-client.js";
import type { Inbox } from "../a2a/task/environment.js";
import type { ServerTask } from "../a2a/task/server-task.js";
import type { QueryFactory } from "../claude/index.js";
import type { Config } from "../config/schema.js";
import { checkHealth, type HealthReport } from "../http/health.js";
import { ServerMetrics } from "../metrics/metrics.js";
import type { SlotsFactory } from "../sessions/machine-slots.js";
import type { SessionPool } from "../sessions/pool.js";
import { describePassthrough, passthroughOptions } from "../sessions/session-options.js";
import { modelPolicyOf } from "../contract/task-options.js";
import { taskStoreStack } from "../store/task-store-stack.js";
import { callerAccounting } from "../a2a/routing/caller-accounting.js";
import { CallerLimits } from "../limits/caller-limits.js";
import { anyLimit } from "../limits/decisions.js";
import { realClock, type Clock, type Timers } from "../common/timers.js";
import { loadTracing, type Tracing } from "../tracing/tracing.js";
import { packageVersion } from "../common/version.js";
import { claudeEnvironment, type SessionWiring } from "./session-factory.js";
import { deliveryRunner } from "./delivery-wiring.js";
import { withReviewer } from "./review-wiring.js";
import { openSessionPool } from "./session-pool.js";
import { controlEnvironment } from "./control-wiring.js";
import { openWorktreeIsolation } from "./worktree-isolation.js";
import { requestStack } from "./request-stack.js";
import { openWorkspaceState } from "./workspace-state.js";
import { openTaskOutputs } from "./task-outputs.js";
import type { TaskStores } from "../store/task-stores.js";
import * as fleets from "../fleet/open.js";
import { openSandbox } from "../sandbox/workspace-sandbox.js";
import { triggerPrompts } from "../triggers/policy.js";
import { logSandboxDenials } from "../sandbox/denial-log.js";

export interface AgentOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The Claude Code child's whole environment (the SDK replaces, never merges). Default: inherit. */
  readonly claudeEnv?: Record<string, string>;
  /** The secret variables of the server's other workspaces (kept out of this one's Claude). */
  readonly otherWorkspacesSecrets?: readonly string[];
  /** Extra Agent SDK options (e.g. `pathToClaudeCodeExecutable`, `stderr`). */
  readonly sdkOptions?: Partial<Options>;
  /** The SDK seam: how a Claude Code query is started. */
  readonly queryFactory?: QueryFactory;
  readonly taskStore?: TaskStore;
  /** The clock seam of input timeouts. */
  readonly timers?: Timers;
  /** The wall clock of per-caller limits (minute windows, UTC days) and the thrash warning. */
  readonly clock?: Clock;
  /** Tracing to use instead of what `tracing` in the config says (tests: an in-memory exporter). */
  readonly tracing?: Tracing;
  /** Where attachments are written (a seam, so a test can hold a write). */
  readonly inbox?: Inbox;
  /** The workspace's name when the server serves several (`workspaces`); unset at the root. */
  readonly workspace?: string;
  /** The process slots of its pool (the machine-wide cap of several workspaces). */
  readonly slots?: SlotsFactory;
  /** The config file `--config` named (the "strict" sandbox keeps commands from reading it). */
  readonly configFile?: string | null;
  /**
   * Where the session map and the pid file live instead of the workspace (`claude-a2a demo`,
   * `--scripted`): a server on a scripted model never reads or rewrites the real server's
   * conversations (its transcripts are elsewhere: it would drop every mapping as stale).
   */
  readonly stateDir?: string;
}

/** Everything behind the HTTP surface: the A2A request handler down to the Claude sessions. */
export interface Agent {
  /** The workspace it serves, by name (`workspaces`); undefined for the one at the root. */
  readonly workspace: string | undefined;
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  readonly executor: ClaudeAgentExecutor;
  readonly pool: SessionPool;
  readonly taskStore: TaskStore;
  /** The configured task and push-config stores (health checks, shutdown). */
  readonly stores: TaskStores;
  readonly metrics: ServerMetrics;
  /** Spans of requests, tasks, runs and tool calls (`NO_TRACING` when off). */
  readonly tracing: Tracing;
  health(): Promise<HealthReport>;
  /** Ends every Claude session (running tasks end) and flushes the session map. */
  closeSessions(): Promise<void>;
  /** `closeSessions()`, then waits for pending task writes and closes the store. */
  close(): Promise<void>;
}

export async function createAgent(o: AgentOptions): Promise<Agent> {
  const { config, logger } = o;
  const cwd = config.claude.cwd;
  // First: a signing key that does not work stops startup before anything is opened.
  const cards = await buildCards(config, { version: packageVersion() });
  const claudeEnv = claudeEnvironment(config, o.claudeEnv, o.otherWorkspacesSecrets);
  // The Claude Code options the config passes through, the same for every session (env: names).
  const passthrough = passthroughOptions(config.claude, claudeEnv);
  // `server.sandbox.required`: a workspace whose sandbox is off or cannot run stops startup here.
  const sandbox = await openSandbox(config, {
    workspace: o.workspace,
    configFile: o.configFile,
    logger,
    // What the children get: the boundary unsets every variable of it for their commands.
    env: passthrough.env ?? claudeEnv ?? process.env,
  });
  // `claude.isolation: "worktree"`: a workspace that is not a git repository stops startup here.
  const worktrees = await openWorktreeIsolation(config, logger);
  const cwdOf = (key?: string) => (key && worktrees?.cwdOf(key)) ?? cwd;
  // What a new task's message may choose: the guard checks it, the executor runs with it.
  const newTasks = {
    maxBudgetUsd: config.claude.maxBudgetUsd,
    models: modelPolicyOf(config.claude),
    sandbox: sandbox.policy,
    permissionModes: {
      workspace: config.claude.permissionMode,
      allowed: allowedModes(config.server, config.claude),
    },
    delivery: { isolation: config.claude.isolation, config: config.claude.delivery },
  } satisfies NewTaskPolicy;
  logger.debug({ claude: describePassthrough(config.claude) }, "claude options");
  const { orphans, stores, sessionMap, recoveredUsage } = await openWorkspaceState(config, {
    logger,
    stateDir: o.stateDir,
    taskStore: o.taskStore,
    claudeEnv,
  });

  const sandboxLogger = logger.child({ component: "sandbox" });
  // Sessions report to the executor, which needs the pool that creates them: the factory reads
  // `executor` only when a session calls it, and sessions exist only through the executor.
  const wiring: SessionWiring = {
    config,
    logger,
    cwdOf,
    passthrough,
    ...(sandbox.settings && { sandbox: sandbox.settings }),
    ...(sandbox.boundary && { boundary: sandbox.boundary }),
    ...(claudeEnv && { claudeEnv }),
    ...(o.sdkOptions && { sdkOptions: o.sdkOptions }),
    ...(o.queryFactory && { queryFactory: o.queryFactory }),
    checkpoints: config.server.control.rewind && config.claude.isolation !== "worktree",
    executor: () => executor,
    peers: peersOf(config.peers),
    delegatingTask: (runId) => ownership.ofRun(runId)?.delegation,
  };
  const pool = openSessionPool(wiring, {
    sessionMap,
    orphans,
    spareSite: worktrees?.spareSite ?? { current: () => cwd },
    transcriptEnv: o.claudeEnv,
    slots: o.slots,
    ...(o.clock && { clock: o.clock }),
    onSessionEvent: (key, event) => {
      metrics.onSessionEvent(key, event);
      logSandboxDenials(sandboxLogger, key, event);
    },
  });
  const metrics = new ServerMetrics({
    tasksByState: () => stores.countByState(),
    liveSessions: () => pool.liveCount,
    backgroundTasks: () => pool.backgroundTaskCount(),
    queuedTasks: () => pool.waiting,
    spares: () => pool.spareCounts,
    capTurnover: () => pool.capTurnover,
    callerLabel: metricsCallerLabel({
      tokens: config.server.auth.tokens.map((t) => t.name),
      logins: config.server.allowedLogins ?? [],
      triggers: Object.keys(config.triggers),
    }),
  });
  const fleet = o.taskStore
    ? undefined
    : await fleets.openFleetOf(config, logger, metrics, stores, recoveredUsage);
  // The sweep itself starts once the server serves (app/server.ts); from now on a conversation
  // used before the sweep reaches it is checked first.
  pool.prepareSweep();
  const { taskStore, terminal } = taskStoreStack({
    backend: stores.backend,
    everyOwner: stores.everyOwner,
    tellFaults: stores.tellFaults,
    logger: logger.child({ component: "store" }),
    owned: fleet && ((inner) => fleet.ownedStore(inner)),
    taskRules: true,
  });
  // Built before the bus manager and the executor, which both read it: nothing is set later.
  const ownership = new RunOwnership<ServerTask>();
  const isLive = (taskId: string) => ownership.isActive(taskId);
  const busManager = fleet
    ? new fleets.RelayingBusManager(isLive, fleet)
    : new TaskBusManager(isLive);
  const tracing = o.tracing ?? (await loadTracing(config.tracing));
  // Counted only when some limit is configured: otherwise nothing per caller is kept at all.
  const limits = anyLimit(config.limits)
    ? await CallerLimits.open({
        config: config.limits,
        store: stores.usage,
        clock: o.clock ?? realClock,
        logger: logger.child({ component: "limits" }),
      })
    : undefined;
  const { pushTargets, pushSender, push, replay } = openTaskOutputs(config, {
    stores,
    fleet,
    metrics,
    logger,
    tracing,
    traceHeaders: (taskId) => executor.traceHeaders(taskId),
  });
  const a2aLogger = logger.child({ component: "a2a" });
  const autonomous = new AutonomousTasks({
    taskStore,
    busManager,
    logger: a2aLogger,
    ...(push && { push }),
    ...(replay && { replay }),
  });
  const operatorTasks = {
    operators: operatorScopes({
      operators: config.server.operators,
      tokens: config.server.auth.tokens.map((t) => t.name),
      logins: config.server.allowedLogins ?? [],
    }),
    ownerOf: (taskId: string, tenant: string) => stores.everyOwner.ownerOf(taskId, tenant),
  };
  const executor = new ClaudeAgentExecutor({
    pool,
    cwd,
    policy: {
      permissionPrompts: config.claude.permissionPrompts,
      maxPermissionDenials: config.claude.maxPermissionDenials,
      inputTimeoutMs: config.claude.inputTimeoutMs,
      backgroundTasks: config.claude.backgroundTasks,
      backgroundWaitTimeoutMs: config.claude.backgroundWaitTimeoutMs,
      ...newTasks,
    },
    taskStore,
    busManager,
    logger: a2aLogger,
    ownership,
    autonomous,
    ...(o.timers && { timers: o.timers }),
    ...(o.inbox && { inbox: o.inbox }),
    fileRefused: (refusal) => metrics.countFileRefusal(refusal.kind),
    ...(push && { push }),
    ...(replay && { replay }),
    ...(config.streaming.flushMs > 0 && { streaming: config.streaming }),
    toolOutputBytes: config.artifacts.maxToolOutputBytes,
    ...(limits && { accounting: callerAccounting(limits) }),
    tracing,
    ...(worktrees && { isolation: worktrees.task }),
    control: { rewind: config.server.control.rewind, fork: config.server.control.fork },
    controlEnv: controlEnvironment(pool, cwdOf, o.claudeEnv),
    operatorTasks,
    triggerPrompts: triggerPrompts(config.triggers),
    delivery: withReviewer(
      deliveryRunner(config, sandbox, metrics.delivery, passthrough.env ?? claudeEnv),
      wiring,
      pool,
    ),
  });

  const { card } = cards;
  const operators = {
    ...operatorTasks,
    cancelingOperator: (taskId: string, name: string | undefined) =>
      executor.cancelingOperator(taskId, name),
  };
  const requestHandler = requestStack({
    card,
    taskStore,
    executor,
    busManager,
    pushStore: stores.pushStore,
    pushSender,
    pushTargets,
    policy: {
      ...newTasks,
      callerLimits: limits,
      control: { steer: config.server.control.steer },
    },
    extendedCard: cards.extended && extendedCardProvider(cards.extended),
    operators,
    fleet,
    // With event numbers, the v1.1 generations too (a request that activates them).
    replay: replay && { log: replay, workspace: o.workspace ?? "", logger: a2aLogger },
  });
  // Last: the spares' sessions report to the executor once taken.
  pool.fillSpares();
  worktrees?.onSpareReady(() => pool.fillSpares());
  const closeSessions = async () => {
    // First: a task waiting for an answer stays so in the store, for the next server to keep
    // (store/recovery.ts). A fleet's recovery fails such tasks: there they end as they did.
    if (config.store.type !== "postgres") executor.suspendParked();
    await pool.closeAll();
    await sessionMap.flush();
    await orphans.record();
  };
  return {
    workspace: o.workspace,
    card,
    requestHandler,
    executor,
    pool,
    taskStore,
    stores,
    metrics,
    tracing,
    health: () =>
      checkHealth({
        storeType: stores.type,
        pingStore: () => stores.ping(),
        writeFaults: () => stores.writeFaults(),
        liveSessions: () => pool.liveCount,
        maxLive: config.sessions.maxLive,
        sessionSweep: () => pool.sweepProgress,
        ...(config.sessions.spares > 0 && { spares: () => pool.spareCounts }),
        ...(fleet && { instance: () => fleet.health() }),
        ...(worktrees && { gitDamage: () => worktrees.damage() }),
      }),
    closeSessions,
    close: async () => {
      await closeSessions();
      await sessionMap.close();
      await orphans.release();
      await worktrees?.close();
      await terminal?.drain();
      await limits?.drain();
      await fleet?.close();
      await replay?.close();
      await stores.close();
      await tracing.shutdown();
    },
  };
}
