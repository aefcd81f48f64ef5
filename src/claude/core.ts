import type { Logger } from "pino";
import { BackgroundTaskRegistry } from "./background-tasks.js";
import { SessionEmitter } from "./events.js";
import { OwnershipIndex } from "./ownership.js";
import type { ForegroundSlot, RouteContext } from "./router.js";
import {
  deriveStatus,
  isActiveLifecycle,
  RunTracker,
  type Run,
  type RunOutcome,
  type SessionStatus,
} from "./run-tracker.js";
import { SteerBook } from "./steering.js";
import { TimelineAssembler } from "./timeline.js";
import { TurnState } from "./turn-state.js";
import { UsageMeter } from "./usage.js";
import type { SandboxViolation } from "./sandbox-violations.js";

/** What the session (not the pump) decides when a run ends. */
export interface CoreHost {
  /** The last autonomous run tore down with a foreground prompt waiting: send it, now. */
  takeHandoff(): void;
  /** Called after every ending, so the next queued prompt can start. */
  onRunEnded(run: Run): void;
}

/**
 * The state the pump and the session share, and the one place a run ends, so that turn state,
 * turn ownership and status always move together.
 */
export class SessionCore {
  readonly emitter: SessionEmitter;
  readonly runs: RunTracker;
  readonly turn: TurnState;
  readonly timeline: TimelineAssembler;
  readonly owners = new OwnershipIndex();
  /** Steering messages sent to runs and not yet taken by the runtime (`steering.ts`). */
  readonly steers = new SteerBook();
  /** The process's cost totals, so each result's run gets its own share. */
  readonly usage = new UsageMeter();
  /** Tool calls the server's guard refused, by tool use id, until their result is normalized. */
  readonly refusals = new Map<string, readonly SandboxViolation[]>();
  readonly tasks: BackgroundTaskRegistry;
  private foregroundSlot: ForegroundSlot | undefined;
  /** The run the runtime's current turn belongs to, as its main-thread content says. */
  private owner: string | undefined;
  private id: string | undefined;
  private permissionsPending = 0;
  /**
   * Background tasks notified as finished since the runtime's current turn began: the causes of
   * the wake that follows (a Monitor wake has none).
   */
  private pendingCauses: string[] = [];
  private failed = false;
  private ended = false;
  private why: string | undefined;
  /** The status last announced by a `status` event. */
  private announced: SessionStatus = "idle";
  private host: CoreHost | undefined;

  constructor(
    readonly logger: Logger,
    newId: () => string,
  ) {
    this.emitter = new SessionEmitter(logger);
    this.runs = new RunTracker(
      logger.child({ module: "runs" }),
      (run, from) => {
        this.emitter.emit({
          type: "run_state",
          runId: run.id,
          origin: run.origin,
          from,
          to: run.state,
        });
        // No status here: every ending goes through endRun, which announces run_ended first and
        // then the status it leads to (a listener must learn the outcome before `idle`).
      },
      newId,
      (runId) => this.owners.forgetRun(runId),
    );
    this.turn = new TurnState(logger.child({ module: "turn" }), (from, to, reason) =>
      this.emitter.emit({ type: "turn_state", from, to, reason }),
    );
    this.timeline = new TimelineAssembler(logger.child({ module: "timeline" }), (entry) =>
      this.emitter.emit({ type: "timeline", entry }),
    );
    this.tasks = new BackgroundTaskRegistry(logger.child({ module: "tasks" }), (id) =>
      this.owners.runForToolUse(id),
    );
  }

  attach(host: CoreHost): void {
    this.host = host;
  }

  /** The foreground run whose prompt was sent, until it ends. */
  get foreground(): ForegroundSlot | undefined {
    return this.foregroundSlot;
  }

  /** A foreground prompt went to the runtime: its run holds the turn once the runtime stamps it. */
  foregroundSent(runId: string, userMessageUuid: string): void {
    this.foregroundSlot = { runId, userMessageUuid, bound: false };
  }

  /** The runtime stamped our prompt: the current turn answers it. */
  foregroundBound(): void {
    if (this.foregroundSlot !== undefined) this.foregroundSlot.bound = true;
  }

  get turnOwner(): string | undefined {
    return this.owner;
  }

  ownTurn(runId: string): void {
    this.owner = runId;
  }

  /** The runtime's turn ended (its result): the next frames start a turn of their own. */
  turnEnded(): void {
    this.owner = undefined;
  }

  /** The runtime's session id: from `resume` at first, then as the runtime reports it. */
  get sessionId(): string | undefined {
    return this.id;
  }

  /** Adopts the id the runtime reports; true when it changed. */
  adoptSessionId(id: string): boolean {
    if (id === this.id) return false;
    this.id = id;
    return true;
  }

  /** Counted before the request is announced: its listeners already see `requires_action`. */
  permissionAsked(): void {
    this.permissionsPending++;
  }

  permissionSettled(): void {
    this.permissionsPending--;
  }

  backgroundFinished(taskId: string): void {
    this.pendingCauses.push(taskId);
  }

  /** The finished background tasks not yet attributed to a wake; empties the list. */
  takePendingCauses(): string[] {
    return this.pendingCauses.splice(0);
  }

  /** The query's stream is over: nothing can be sent any more. */
  get processEnded(): boolean {
    return this.ended;
  }

  /** Why the stream ended, for prompts that arrive afterwards. */
  get endReason(): string | undefined {
    return this.why;
  }

  /**
   * The process is gone (or never started): no prompt can be sent, and every wait for a tool
   * use is released. `failed` when it was not our close that ended it.
   */
  processGone(reason: string | undefined, failed: boolean): void {
    this.ended = true;
    this.owners.endWaits();
    if (reason !== undefined) this.why = reason;
    if (failed) this.failed = true;
  }

  /**
   * Derived from the runs now, not the last announcement: a listener reacting to `run_started`
   * runs before the `status` event that follows it, and must already see `running`.
   */
  get currentStatus(): SessionStatus {
    return deriveStatus(this.runs.statusRuns(), this.permissionsPending, this.failed);
  }

  /** A live view, made once: the pump asks for it per message. */
  routeContext(): RouteContext {
    return this.routeView;
  }

  private readonly routeView: RouteContext = ((core: SessionCore): RouteContext => ({
    get turnState() {
      return core.turn.state;
    },
    get foreground() {
      return core.foreground;
    },
    get turnOwner() {
      return core.turnOwner;
    },
    runForSend: (uuid) => core.owners.runForSend(uuid),
    runForTask: (taskId) => core.tasks.runForTask(taskId),
    runForToolUse: (id) => core.owners.runForToolUse(id),
    runForMessage: (id) => core.owners.runForMessage(id),
  }))(this);

  /** Announces the status if it changed since the last announcement. */
  refreshStatus(): void {
    const next = this.currentStatus;
    if (next === this.announced) return;
    const previous = this.announced;
    this.announced = next;
    this.logger.debug({ from: previous, to: next }, "session: status");
    this.emitter.emit({ type: "status", status: next, previous });
  }

  startAutonomousRun(reason: string): Run {
    const run = this.runs.create("autonomous", "awaiting_response");
    const causes = this.takePendingCauses();
    run.causes = causes;
    // A run may also start while a foreground prompt waits for its turn (the runtime's turn began
    // before our send): the turn state then stays foreground, the foreground exclusivity of docs/provider-design.md holds.
    // The turn moves before run_started: a prompt sent by a listener of that event must see the
    // autonomous turn and take the atomic handoff, not be queued behind the wake in the runtime.
    if (this.turn.state === "idle") this.turn.transition("autonomous", reason);
    this.emitter.emit({ type: "run_started", runId: run.id, origin: "autonomous", causes });
    this.refreshStatus();
    return run;
  }

  /** Ends an active run and settles everything that depends on it. No-op for ended runs. */
  endRun(runId: string, outcome: RunOutcome, reason: string): void {
    const run = this.runs.get(runId);
    if (run === undefined || !isActiveLifecycle(run.state)) return;
    if (!this.runs.finish(runId, outcome, reason).ok) return;
    if (this.owner === runId) this.owner = undefined;
    this.steers.forget(runId);
    if (outcome.state === "interrupted") this.timeline.markRunInterrupted(runId);
    this.emitter.emit({ type: "run_ended", runId, origin: run.origin, outcome });

    if (this.foregroundSlot?.runId === runId) {
      this.foregroundSlot = undefined;
      if (this.turn.state === "foreground") this.turn.transition("idle", `foreground ${reason}`);
    }
    const autonomousActive = this.runs
      .active()
      .some((r) => r.origin === "autonomous" && r.state !== "queued");
    if (this.turn.state === "autonomous" && !autonomousActive) {
      if (this.turn.handoffRequested && this.host !== undefined) this.host.takeHandoff();
      else this.turn.transition("idle", `autonomous runs ended (${reason})`);
    } else if (this.turn.state === "idle" && autonomousActive) {
      this.turn.transition("autonomous", "autonomous run still active");
    }
    this.refreshStatus();
    this.timeline.trim((id) => {
      const r = this.runs.get(id);
      return r !== undefined && isActiveLifecycle(r.state);
    });
    this.host?.onRunEnded(run);
  }
}
