import { join } from "node:path";
import { createAgent, type Agent, type AgentOptions } from "./agent.js";
import { everyWorkspaceSecret } from "./session-factory.js";
import { legacyAgentCardJson } from "../a2a/card/legacy-card.js";
import { CardSigningError } from "../a2a/card/signing.js";
import { WorktreeSetupError } from "../workspace/worktrees/manager.js";
import type { Config } from "../config/schema.js";
import { workspaceAllows, workspaceConfig, type WorkspaceSpec } from "../config/workspaces.js";
import type { Caller } from "../identity/caller.js";
import { MachineSlots } from "../sessions/machine-slots.js";
import { StartupError } from "../common/startup-error.js";
import { ensureDatabase, scopedUrl } from "../store/postgres-scope.js";
import { loadTracing, type Tracing } from "../tracing/tracing.js";
import { triggerProblems } from "../triggers/policy.js";
import { deliveryTokenProblems } from "../delivery/token-problems.js";
import { TriggerReceiver } from "../triggers/receiver.js";
import { LastFirings, TriggerOperations } from "../triggers/operations.js";
import { operatorScopes } from "../identity/operators.js";
import type { Scheduler } from "../triggers/schedule/scheduler.js";
import { triggersOfKind } from "../config/triggers-schema.js";
import { openSchedules, type Schedules } from "./schedules.js";

/**
 * The agents one server serves: the one of `claude.cwd` at the root, or one per workspace
 * (`workspaces`, `--workspace`), each built by `createAgent` from its own whole config, all
 * sharing the machine's process cap and one tracing.
 */

/** One agent as the bindings serve it. */
export interface ServedAgent {
  /** The workspace's name; undefined for the agent at the root. */
  readonly name: string | undefined;
  /** The whole config it runs with (a workspace's: `workspaceConfig`). */
  readonly config: Config;
  readonly agent: Agent;
  /** Its card in v0.3's shape, with `server.compat.v03`. */
  readonly compatV03?: { readonly legacyCard: Record<string, unknown> };
  /** Whether a caller the server let in may call it (`workspaces.<name>.callers`). */
  allows(caller: Caller): boolean;
  /** Its webhook triggers, when it has any (docs/triggers.md). */
  readonly hooks?: TriggerReceiver;
  /** Its triggers as an operator sees and fires them (`<base>/triggers`). */
  readonly triggers: TriggerOperations;
  /**
   * Its schedules, when it has any (docs/triggers.md "Schedules"): `names()`, `nextFiring(name)`,
   * `lastFiring(name)` and `fireNow(name)` for the operator's surface. Started once it serves.
   */
  readonly schedules?: Scheduler;
}

export interface ServedAgents {
  /** In order: the first is the one gRPC serves. */
  readonly agents: readonly ServedAgent[];
  /** Ends what they share (tracing), after every agent's `close()`. */
  closeShared(): Promise<void>;
}

export async function createServedAgents(o: AgentOptions): Promise<ServedAgents> {
  const { config } = o;
  if (config.workspaces.length === 0) {
    const agent = await served(o, undefined, () => true);
    return { agents: [agent], closeShared: () => Promise.resolve() };
  }
  const machine = new MachineSlots({
    maxLive: config.sessions.maxLive,
    graceMs: config.sessions.minIdleBeforeEvictMs,
    now: Date.now,
  });
  const tracing = o.tracing ?? (await loadTracing(config.tracing));
  // Each agent shuts its tracing down when it closes: the shared one goes once, at the end.
  const shared: Tracing = { ...tracing, shutdown: () => Promise.resolve() };
  const agents: ServedAgent[] = [];
  // A workspace's tokens (its triggers', its delivery's) are out of every workspace's Claude.
  const secrets = everyWorkspaceSecret(config);
  try {
    for (const [i, spec] of config.workspaces.entries()) {
      const wsConfig = await scopedStore(workspaceConfig(config, spec, i === 0), spec);
      const agent = await served(
        {
          ...o,
          config: wsConfig,
          // Every line of its sessions, tasks and store says which workspace it is about.
          logger: o.logger.child({ workspace: spec.name }),
          workspace: spec.name,
          ...(o.stateDir !== undefined && { stateDir: join(o.stateDir, spec.name) }),
          slots: machine.forWorkspace(spec.name, spec.maxLive),
          tracing: shared,
          otherWorkspacesSecrets: secrets,
          // A task store given by a test is one store: it would mix the workspaces.
          taskStore: undefined,
        },
        spec.name,
        (caller) => workspaceAllows(spec.callers, caller),
      );
      agent.agent.metrics.registry.setDefaultLabels({ workspace: spec.name });
      agents.push(agent);
    }
  } catch (err) {
    await Promise.all(agents.map((a) => a.agent.close()));
    await tracing.shutdown();
    throw err;
  }
  return { agents, closeShared: () => tracing.shutdown() };
}

/** With a PostgreSQL store, the workspace's own database on that server (created if missing). */
async function scopedStore(config: Config, spec: WorkspaceSpec): Promise<Config> {
  if (config.store.type !== "postgres") return config;
  try {
    await ensureDatabase(config.store.url, spec.name);
  } catch (err) {
    throw new StartupError(
      `Workspace "${spec.name}": cannot create its PostgreSQL database: ${(err as Error).message}`,
    );
  }
  return { ...config, store: { ...config.store, url: scopedUrl(config.store.url, spec.name) } };
}

async function served(
  o: AgentOptions,
  name: string | undefined,
  allows: (caller: Caller) => boolean,
): Promise<ServedAgent> {
  const named = (message: string) =>
    name === undefined ? message : `Workspace "${name}": ${message}`;
  const [problem] = [
    ...triggerProblems(o.config, process.env, name),
    ...deliveryTokenProblems(
      o.config.claude.delivery,
      process.env,
      name === undefined ? "claude.delivery" : `workspaces.${name}.claude.delivery`,
    ),
  ];
  if (problem !== undefined) throw new StartupError(problem);
  const agent = await createAgent(o).catch((err: unknown) => {
    const known = err instanceof CardSigningError || err instanceof WorktreeSetupError;
    throw known ? new StartupError(named(err.message)) : err;
  });
  let compatV03: ServedAgent["compatV03"];
  try {
    if (o.config.server.compat.v03) {
      compatV03 = { legacyCard: await legacyAgentCardJson(agent.card) };
    }
  } catch (err) {
    await agent.close();
    throw new StartupError(named(`server.compat.v03: ${(err as Error).message}`));
  }
  const lastFirings = new LastFirings();
  const hooks =
    triggersOfKind(o.config.triggers, "webhook").length === 0
      ? undefined
      : new TriggerReceiver({
          triggers: o.config.triggers,
          env: process.env,
          handler: agent.requestHandler,
          logger: o.logger.child({ component: "triggers" }),
          registry: agent.metrics.registry,
          onFiring: lastFirings.record,
          consoleUrl: `${o.config.server.publicUrl}/console/`,
        });
  const schedules = await openSchedules({
    config: o.config,
    agent,
    logger: o.logger.child({ component: "triggers" }),
    stateDir: o.stateDir,
    workspace: name,
    clock: o.clock,
    timers: o.timers,
  }).catch(async (err: unknown) => {
    await agent.close();
    throw new StartupError(named(`triggers: ${(err as Error).message}`));
  });
  const triggers = new TriggerOperations({
    triggers: o.config.triggers,
    workspace: name,
    operators: operatorScopes({
      operators: o.config.server.operators,
      tokens: o.config.server.auth.tokens.map((t) => t.name),
      logins: o.config.server.allowedLogins ?? [],
    }),
    handler: agent.requestHandler,
    receiver: hooks,
    lastFirings,
    ...(schedules && { schedules: schedules.scheduler }),
  });
  return {
    name,
    config: o.config,
    // The schedules stop firing before the sessions end, and their rows close before the store.
    agent: schedules ? withSchedules(agent, schedules) : agent,
    ...(compatV03 && { compatV03 }),
    allows,
    ...(hooks && { hooks }),
    triggers,
    ...(schedules && { schedules: schedules.scheduler }),
  };
}

function withSchedules(agent: Agent, schedules: Schedules): Agent {
  return {
    ...agent,
    closeSessions: async () => {
      await schedules.close();
      await agent.closeSessions();
    },
    close: async () => {
      await schedules.close();
      await agent.close();
    },
  };
}
