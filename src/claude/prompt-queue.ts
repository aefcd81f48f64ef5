import type { UUID } from "node:crypto";
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { SessionCore } from "./core.js";
import { contentBlocks, textOf } from "./normalize.js";
import { errorText } from "./pump.js";
import { isActiveLifecycle, type Run } from "./run-tracker.js";
import type { SessionProcess } from "./session-process.js";
import type { SteerOutcome, SteerPriority } from "./steering.js";
import type { TurnStateName } from "./turn-state.js";
import {
  describeSwitch,
  isNoSwitch,
  resolveSettings,
  settingsSwitch,
  type SettingsSwitch,
  type TurnSettings,
} from "./turn-settings.js";

export type UserPrompt = string | SDKUserMessage["message"]["content"];

interface PendingPrompt {
  run: Run;
  uuid: string;
  prompt: UserPrompt;
  /** Resolved: the model and effort this prompt runs with. */
  settings: TurnSettings;
}

/** What the queue does when asked to move on (`nextStep`). */
export type QueueStep =
  /** Nothing now: no prompt waits, or the turn, a switch or a handoff is under way. */
  | "wait"
  /** The process is closing or gone: every waiting prompt ends with why. */
  | "end_all"
  /** An autonomous run holds the turn: interrupt it, send once its teardown is over. */
  | "hand_off"
  | "send";

export interface QueueState {
  readonly waiting: boolean;
  /** A foreground run holds the turn, or a settings switch is under way. */
  readonly busy: boolean;
  readonly unusable: boolean;
  readonly turn: TurnStateName;
  readonly handoffRequested: boolean;
}

/** The scheduler's decision: never pushes a prompt while a turn runs. Pure. */
export function nextStep(s: QueueState): QueueStep {
  if (!s.waiting || s.busy) return "wait";
  if (s.unusable) return "end_all";
  switch (s.turn) {
    case "foreground":
      return "wait";
    case "autonomous":
      return s.handoffRequested ? "wait" : "hand_off";
    case "idle":
      return "send";
  }
}

/**
 * The prompts of a session's foreground runs, one turn at a time: they wait here (their runs
 * `queued`) until the runtime's turn is free, take it over from an autonomous run (interrupt,
 * teardown, then send: the atomic handoff), and switch the process's model or effort first when
 * a prompt asks for other settings. The process itself is session-process.ts's. Steering (a
 * prompt into the turn under way) and a prompt's priority land here.
 */
export class PromptQueue {
  private readonly pending: PendingPrompt[] = [];
  /** A model or effort switch is under way: nothing is sent until it is done. */
  private switching = false;

  constructor(
    private readonly core: SessionCore,
    private readonly process: SessionProcess,
    private readonly logger: Logger,
    private readonly defaults: TurnSettings,
  ) {}

  /** Queues a run's prompt (`settings` resolved against the session's defaults) and moves on. */
  enqueue(run: Run, uuid: string, prompt: UserPrompt, settings: TurnSettings): void {
    this.pending.push({ run, uuid, prompt, settings: resolveSettings(settings, this.defaults) });
    this.schedule();
  }

  /**
   * A message into a foreground run under way (steering, `steering.ts`): pushed with the
   * runtime's `priority` while the run's prompt is with the runtime, merged into its prompt
   * while that still waits here. The run's stream says `steered` once the runtime took it.
   */
  steer(runId: string, uuid: string, prompt: UserPrompt, priority: SteerPriority): SteerOutcome {
    const core = this.core;
    const run = core.runs.get(runId);
    if (run?.origin !== "foreground" || !isActiveLifecycle(run.state) || this.process.unusable) {
      return { kind: "not_running" };
    }
    const queued = this.pending.find((p) => p.run.id === runId);
    if (queued !== undefined) {
      queued.prompt = [...promptBlocks(queued.prompt), ...promptBlocks(prompt)];
      core.emitter.emit({ type: "run_steered", runId, uuids: [uuid] });
      return { kind: "merged", uuid };
    }
    if (core.foreground?.runId !== runId) return { kind: "not_running" };
    core.owners.recordSend(uuid, runId);
    core.steers.add(runId, uuid);
    core.timeline.addUserPrompt(uuid, textOf(contentBlocks(prompt)), runId);
    this.logger.debug({ runId, uuid, priority }, "session: steering message sent");
    this.process.send({
      type: "user",
      message: { role: "user", content: prompt },
      parent_tool_use_id: null,
      uuid: uuid as UUID,
      priority,
    });
    return { kind: "sent", uuid };
  }

  /** Ends every prompt not sent yet, with `reason` (the session is closing). */
  endAll(reason: string): void {
    for (const item of this.pending.splice(0)) {
      const outcome = { state: "interrupted", text: "", reason } as const;
      this.core.endRun(item.run.id, outcome, reason);
    }
  }

  /** A run ended: if its prompt still waited, it goes; the next one may start. */
  onRunEnded(run: Run): void {
    const index = this.pending.findIndex((p) => p.run.id === run.id);
    if (index >= 0) this.pending.splice(index, 1);
    this.schedule();
  }

  /** The autonomous run's teardown is over: the waiting prompt takes the turn. */
  takeHandoff(): void {
    const next = this.pending[0];
    if (next === undefined || this.process.unusable) {
      this.core.turn.transition("idle", "handoff target gone");
      return;
    }
    this.send(next);
  }

  /** Starts the next queued prompt if the turn is free; never pushes while a turn runs. */
  schedule(): void {
    const next = this.pending[0];
    const core = this.core;
    const step = nextStep({
      waiting: next !== undefined,
      busy: core.foreground !== undefined || this.switching,
      unusable: this.process.unusable,
      turn: core.turn.state,
      handoffRequested: core.turn.handoffRequested,
    });
    switch (step) {
      case "wait":
        return;
      case "end_all": {
        const reason = this.process.deadReason();
        for (const item of this.pending.splice(0)) {
          core.endRun(item.run.id, { state: "error", reason }, "unusable");
        }
        return;
      }
      case "hand_off": {
        // Atomic autonomous → foreground: interrupt, await teardown (its result), then send.
        core.turn.requestHandoff();
        const autonomous = core.runs
          .active()
          .filter((r) => r.origin === "autonomous" && r.state !== "queued");
        void this.process.interruptRuns(autonomous, "foreground prompt waiting");
        return;
      }
      case "send":
        if (next !== undefined) this.send(next);
        return;
    }
  }

  private send(item: PendingPrompt): void {
    const core = this.core;
    if (!this.process.ensureStarted(item.settings)) {
      if (core.turn.state === "autonomous") core.turn.transition("idle", "process unusable");
      this.schedule();
      return;
    }
    const change = settingsSwitch(this.process.current, item.settings);
    if (!isNoSwitch(change)) {
      // A handed-off turn is given back: the prompt goes from idle once the switch is done.
      if (core.turn.state === "autonomous") core.turn.transition("idle", "switching settings");
      void this.switchSettings(item, change);
      return;
    }
    this.pending.shift();
    if (!core.turn.transition("foreground", "prompt sent").ok) {
      this.pending.unshift(item);
      return;
    }
    core.foregroundSent(item.run.id, item.uuid);
    core.runs.transition(item.run.id, "awaiting_response", "prompt sent");
    const content = item.prompt;
    core.timeline.addUserPrompt(item.uuid, textOf(contentBlocks(content)), item.run.id);
    this.logger.debug({ runId: item.run.id, uuid: item.uuid }, "session: prompt sent");
    this.process.send({
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      uuid: item.uuid as UUID,
    });
  }

  /**
   * Switches the live process to the settings a prompt asked for, before it is sent. If the
   * runtime refuses, that prompt's run fails saying so and the process keeps what it had.
   */
  private async switchSettings(item: PendingPrompt, change: SettingsSwitch): Promise<void> {
    if (!this.process.started) return;
    this.switching = true;
    try {
      await this.process.switchTo(change, item.run.id);
    } catch (error) {
      const reason = `Claude Code could not switch to ${describeSwitch(change)}: ${errorText(error)}`;
      this.logger.warn({ err: error, runId: item.run.id }, "session: switch failed");
      if (isActiveLifecycle(item.run.state)) {
        this.core.endRun(item.run.id, { state: "error", reason }, "settings switch failed");
      }
    } finally {
      this.switching = false;
      this.schedule();
    }
  }
}

/** A prompt as content blocks (a string is one text block), so two can be joined. */
function promptBlocks(prompt: UserPrompt): Exclude<UserPrompt, string> {
  return typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
}
