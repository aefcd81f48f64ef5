import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { NormalizedEvent, SessionEvent } from "../claude/index.js";
import type { RefusalKind } from "../common/safe-files.js";
import { DeliveryMetrics } from "./delivery-metrics.js";

/** What the metrics read of the server at scrape time. */
export interface MetricsSources {
  /** Stored tasks by state name (`submitted`, `working`, …); undefined when the store cannot say. */
  tasksByState(): Promise<Record<string, number> | undefined>;
  liveSessions(): number;
  backgroundTasks(): number;
  /** Tasks waiting for a Claude Code process: `sessions.maxLive` are busy. */
  queuedTasks(): number;
  /** Spare processes ready, and taken by a new conversation since startup (`sessions.spares`). */
  spares?(): { readonly ready: number; readonly taken: number };
  /** Processes `sessions.maxLive` closed for other conversations, and resumes of those since. */
  capTurnover?(): { readonly evictions: number; readonly resumes: number };
  /** The bounded `caller` label of a session's conversation key (`metrics-caller.ts`). */
  callerLabel(conversation: string): string;
}

/** The `type` label of `claude_a2a_tokens_total`, and the usage field it counts. */
const TOKEN_TYPES = {
  input: "inputTokens",
  output: "outputTokens",
  cache_read: "cacheReadTokens",
  cache_creation: "cacheCreationTokens",
} as const;

const PREFIX = "claude_a2a_";
/** Seconds: from a few milliseconds (a warm first token) to an hour-long turn. */
const BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

interface RunTiming {
  readonly startedAt: number;
  firstEventSeen: boolean;
}

/**
 * The Prometheus metrics of one server, in a registry of its own (no global state, so two
 * servers in one process never mix). Session events feed the counters and histograms; gauges
 * are read from their sources when scraped.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  /** Delivery checks and outcomes (docs/delivery.md). */
  readonly delivery = new DeliveryMetrics(this.registry);
  private readonly runs: Counter<"origin" | "outcome">;
  private readonly retries: Counter;
  private readonly sandboxDenials: Counter<"kind">;
  private readonly pushDrops: Counter<"reason">;
  private readonly firstEvent: Histogram<"origin">;
  private readonly turnDuration: Histogram<"origin" | "outcome">;
  private readonly tokens: Counter<"caller" | "model" | "type">;
  private readonly cost: Counter<"caller" | "model">;
  /**
   * By context, then run: a run event looks its run up without building a key (a long answer's
   * every delta is one).
   */
  private readonly timings = new Map<string, Map<string, RunTiming>>();

  constructor(
    private readonly sources: MetricsSources,
    private readonly now: () => number = () => performance.now(),
  ) {
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}tasks`,
      help: "Stored tasks by state (queued tasks are submitted).",
      labelNames: ["state"],
      registers,
      async collect() {
        this.reset();
        const counts = await sources.tasksByState();
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    });
    new Gauge({
      name: `${PREFIX}live_sessions`,
      help: "Live Claude Code sessions (processes).",
      registers,
      collect() {
        this.set(sources.liveSessions());
      },
    });
    new Gauge({
      name: `${PREFIX}queued_tasks`,
      help:
        "Tasks waiting for a Claude Code process because sessions.maxLive are busy (a task " +
        "waiting behind another task of its own context is not counted: it is submitted).",
      registers,
      collect() {
        this.set(sources.queuedTasks());
      },
    });
    new Gauge({
      name: `${PREFIX}spares`,
      help:
        "Spare Claude Code processes (sessions.spares): ready (waiting for a new conversation) " +
        "and taken (by one, since startup).",
      labelNames: ["state"],
      registers,
      collect() {
        const counts = sources.spares?.() ?? { ready: 0, taken: 0 };
        this.set({ state: "ready" }, counts.ready);
        this.set({ state: "taken" }, counts.taken);
      },
    });
    new Counter({
      name: `${PREFIX}cap_evictions_total`,
      help:
        "Idle Claude Code processes closed to stay under sessions.maxLive, for another " +
        "conversation (each one's next turn resumes its session).",
      registers,
      collect() {
        this.reset();
        this.inc(sources.capTurnover?.().evictions ?? 0);
      },
    });
    new Counter({
      name: `${PREFIX}cap_resumes_total`,
      help:
        "Sessions resumed for a conversation whose process sessions.maxLive had closed: " +
        "growing about as fast as turns means the cap is too small (docs/operations.md, Sizing).",
      registers,
      collect() {
        this.reset();
        this.inc(sources.capTurnover?.().resumes ?? 0);
      },
    });
    new Gauge({
      name: `${PREFIX}background_tasks`,
      help: "Background tasks (background Bash, subagents, monitors) running in live sessions.",
      registers,
      collect() {
        this.set(sources.backgroundTasks());
      },
    });
    this.runs = new Counter({
      name: `${PREFIX}runs_total`,
      help: "Claude runs ended, by origin (foreground, autonomous) and outcome.",
      labelNames: ["origin", "outcome"],
      registers,
    });
    this.retries = new Counter({
      name: `${PREFIX}model_api_retries_total`,
      help: "Model API requests the Claude Code runtime retried.",
      registers,
    });
    this.sandboxDenials = new Counter({
      name: `${PREFIX}sandbox_denials_total`,
      help:
        "Calls refused at the sandbox's boundary, by kind: command (the runtime marked a command " +
        "refused by its OS sandbox; on Linux the network refusals, the only ones it marks), or " +
        "what the server refused (outside-roots, server-file, runtime-state, runtime-settings, " +
        "git-metadata, network, sandbox-exit; file-link, file-not-regular, file-outside: a file the" +
        " server itself would not read or write in a workspace).",
      labelNames: ["kind"],
      registers,
    });
    // A counter with labels shows no series until one is counted: the commands' shows 0 at once.
    this.sandboxDenials.inc({ kind: "command" }, 0);
    this.pushDrops = new Counter({
      name: `${PREFIX}push_notifications_dropped_total`,
      help:
        "Push notifications given up, by reason: rejected (the webhook answered a 4xx other " +
        "than 408 and 429: not retried), exhausted (every attempt failed), refused (the " +
        "webhook's address is not allowed).",
      labelNames: ["reason"],
      registers,
    });
    for (const reason of ["rejected", "exhausted", "refused"]) this.pushDrops.inc({ reason }, 0);
    this.tokens = new Counter({
      name: `${PREFIX}tokens_total`,
      help:
        "Model tokens of Claude runs, by caller (a configured token or login, else other), " +
        "model and type (input, output, cache_read, cache_creation).",
      labelNames: ["caller", "model", "type"],
      registers,
    });
    this.cost = new Counter({
      name: `${PREFIX}cost_usd_total`,
      help: "Estimated cost (USD, the runtime's figures) of Claude runs, by caller and model.",
      labelNames: ["caller", "model"],
      registers,
    });
    this.firstEvent = new Histogram({
      name: `${PREFIX}time_to_first_event_seconds`,
      help: "From a run's start to its first output event.",
      labelNames: ["origin"],
      buckets: BUCKETS,
      registers,
    });
    this.turnDuration = new Histogram({
      name: `${PREFIX}turn_duration_seconds`,
      help: "From a run's start to its end.",
      labelNames: ["origin", "outcome"],
      buckets: BUCKETS,
      registers,
    });
  }

  private countDenials(event: NormalizedEvent): void {
    if (event.kind !== "user") return;
    for (const r of event.toolResults) {
      if (r.sandbox !== undefined)
        this.sandboxDenials.inc({ kind: r.sandbox[0]?.kind ?? "command" });
    }
  }

  /**
   * A file the server refused to read or write inside a workspace (an artifact, an inbox file):
   * a link, something other than a regular file, or a path outside (`common/safe-files.ts`).
   */
  countFileRefusal(kind: RefusalKind): void {
    this.sandboxDenials.inc({ kind: `file-${kind}` });
  }

  /** A push notification given up (`a2a/push/delivery-decision.ts`'s reason). */
  countPushDrop(reason: string): void {
    this.pushDrops.inc({ reason });
  }

  /** Feeds one session event (of any context). */
  onSessionEvent(contextId: string, event: SessionEvent): void {
    switch (event.type) {
      case "run_started": {
        let runs = this.timings.get(contextId);
        if (runs === undefined) this.timings.set(contextId, (runs = new Map<string, RunTiming>()));
        runs.set(event.runId, { startedAt: this.now(), firstEventSeen: false });
        return;
      }
      case "run_event": {
        if (event.event.kind === "api_retry") this.retries.inc();
        this.countDenials(event.event);
        this.countUsage(contextId, event.event);
        const timing = this.timings.get(contextId)?.get(event.runId);
        if (timing && !timing.firstEventSeen && !event.late) {
          timing.firstEventSeen = true;
          this.firstEvent.observe({ origin: event.origin }, (this.now() - timing.startedAt) / 1000);
        }
        return;
      }
      case "metadata":
        if (event.event.kind === "api_retry") this.retries.inc();
        this.countDenials(event.event);
        // A result no run owns still cost what it cost.
        this.countUsage(contextId, event.event);
        return;
      case "closed":
        this.timings.delete(contextId);
        return;
      case "run_ended": {
        const outcome = event.outcome.state;
        this.runs.inc({ origin: event.origin, outcome });
        const runs = this.timings.get(contextId);
        const timing = runs?.get(event.runId);
        runs?.delete(event.runId);
        if (runs?.size === 0) this.timings.delete(contextId);
        if (timing) {
          this.turnDuration.observe(
            { origin: event.origin, outcome },
            (this.now() - timing.startedAt) / 1000,
          );
        }
        return;
      }
      default:
        return;
    }
  }

  /** Every result reaches here once (a run's, a late one, or an unowned one): its spend counts. */
  private countUsage(contextId: string, event: NormalizedEvent): void {
    if (event.kind !== "result") return;
    const caller = this.sources.callerLabel(contextId);
    for (const [model, figures] of Object.entries(event.usage.models)) {
      for (const [type, field] of Object.entries(TOKEN_TYPES)) {
        if (figures[field] > 0) this.tokens.inc({ caller, model, type }, figures[field]);
      }
      if (figures.costUsd > 0) this.cost.inc({ caller, model }, figures.costUsd);
    }
  }

  /** The text exposition format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
