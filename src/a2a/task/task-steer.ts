import type { Message } from "@a2a-js/sdk";
import type { RunStream, SteerPriority, UserPrompt } from "../../claude/index.js";
import { status } from "../../contract/statuses.js";
import { InputError, planPrompt, toUserPrompt } from "../content/input.js";

/** A steering message carries text only: no file of its plan is ever written. */
const STEERING_INBOX = "";
import type { TaskCore } from "./task-core.js";

interface Steering {
  readonly message: Message;
  readonly priority: SteerPriority;
  readonly operator: string | undefined;
}

/**
 * Steering a working task (the control extension, docs/control.md): a client's message goes to
 * the foreground run under way, which the runtime folds in at its next tool boundary (or, with
 * `now`, after stopping the step under way). Until the task has a run to take it (still queued,
 * or its run just ended), the message waits here: given to the run once it starts, or run as
 * the task's next turn when the run ended without it. It is shown (`steered`) once Claude has it.
 */
export class TaskSteer {
  /** Messages no run has yet, in order. */
  private readonly waiting: Steering[] = [];
  /** Messages a run has, until the runtime takes them, by the session's uuid. */
  private readonly sent = new Map<string, Steering>();

  constructor(private readonly core: TaskCore) {}

  /** Delivers (or keeps) one steering message; returns why it cannot take it. */
  steer(
    message: Message,
    priority: SteerPriority,
    operator: string | undefined,
  ): string | undefined {
    const core = this.core;
    if (core.ended) return "it has ended";
    let prompt: UserPrompt;
    try {
      // Files are refused below: the folder is named only for the plan's shape.
      const plan = planPrompt(message, STEERING_INBOX);
      if (plan.files.length > 0) return "a steering message carries text only (no files)";
      prompt = toUserPrompt(plan);
    } catch (err) {
      if (err instanceof InputError) return err.message;
      throw err;
    }
    const steering = { message, priority, operator };
    if (this.deliver(steering, prompt)) return undefined;
    const phase = core.phase.name;
    // Not yet sent, or its run is ending: the run (or the task's next turn) takes it.
    if (phase === "queued" || phase === "starting" || core.foregroundRun !== undefined) {
      this.waiting.push(steering);
      return undefined;
    }
    return phase === "waiting"
      ? "its turn is over and it waits for its background work; send a new message"
      : "it is running work Claude started by itself; send a new message";
  }

  /** The foreground run started: it takes the messages that waited for it. */
  runStarted(): void {
    for (const steering of this.waiting.splice(0)) {
      if (!this.deliver(steering, promptOf(steering))) {
        this.waiting.push(steering);
      }
    }
  }

  /** The runtime took messages (their session uuids): the client sees each one, once. */
  onSteered(uuids: readonly string[]): void {
    for (const uuid of uuids) {
      const steering = this.sent.get(uuid);
      if (steering === undefined) continue;
      this.sent.delete(uuid);
      this.shown(steering);
    }
  }

  /**
   * The foreground run ended while messages still waited: they become the task's next turn (a
   * new run of the same task), and are shown as taken. Undefined when none waits.
   */
  nextTurn(): RunStream | undefined {
    const core = this.core;
    const session = core.lease?.session;
    if (this.waiting.length === 0 || session === undefined || core.ended) return undefined;
    const steerings = this.waiting.splice(0);
    const prompt = steerings.flatMap((s) => blocks(promptOf(s)));
    const settings = core.origin.kind === "client" ? core.origin.settings : {};
    const stream = session.stream(prompt, settings);
    for (const steering of steerings) this.shown(steering);
    return stream;
  }

  /**
   * The foreground run ended without completing (it failed, or was interrupted): the messages
   * Claude never took are not run (the task fails); their texts, for its final status to name.
   */
  untaken(): string[] {
    const steerings = [...this.waiting.splice(0), ...this.sent.values()];
    this.sent.clear();
    return steerings.map((s) => textOf(promptOf(s)));
  }

  private deliver(steering: Steering, prompt: UserPrompt): boolean {
    const core = this.core;
    const session = core.lease?.session;
    const runId = core.foregroundRun;
    if (session === undefined || runId === undefined) return false;
    const outcome = session.steer(runId, prompt, steering.priority);
    if (outcome.kind === "not_running") return false;
    this.sent.set(outcome.uuid, steering);
    core.logger.debug({ runId, priority: steering.priority, how: outcome.kind }, "task: steered");
    return true;
  }

  private shown(steering: Steering): void {
    const core = this.core;
    if (core.ended) return;
    core.progress(status.steered(core.ref, steering.message, steering.operator));
  }
}

function promptOf(steering: Steering): UserPrompt {
  return toUserPrompt(planPrompt(steering.message, STEERING_INBOX));
}

function blocks(prompt: UserPrompt): Exclude<UserPrompt, string> {
  return typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
}

function textOf(prompt: UserPrompt): string {
  return blocks(prompt)
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n");
}
