import { describe, expect, it } from "vitest";
import { Normalizer, type NormalizedEvent } from "../../../src/claude/normalize.js";
import { route, type RouteContext } from "../../../src/claude/router.js";
import { sdk } from "./support/sdk-messages.js";

const ev = (m: unknown): NormalizedEvent => new Normalizer().normalize(m);

/** A context where each identifier kind resolves to a different run. */
function ctx(over: Partial<RouteContext> = {}): RouteContext {
  return {
    turnState: "idle",
    foreground: undefined,
    turnOwner: undefined,
    runForSend: (u) => ({ "send-old": "run-old" })[u],
    runForTask: (t) => ({ "task-1": "run-task" })[t],
    runForToolUse: (t) => ({ "tu-1": "run-tool" })[t],
    runForMessage: (m) => ({ "msg-known": "run-msg" })[m],
    ...over,
  };
}

describe("route: identifier priority", () => {
  // One frame carrying every identifier: each step down the order removes the winner's.
  const frame = (o: { agentId?: string; parent?: string; messageId?: string }) =>
    ev(sdk.text(o.messageId ?? "msg-new", "x", { agentId: o.agentId, parent: o.parent ?? null }));

  it("task_id beats parent tool use beats message_id", () => {
    expect(
      route(frame({ agentId: "task-1", parent: "tu-1", messageId: "msg-known" }), ctx()),
    ).toEqual({ kind: "run", runId: "run-task", reason: "task_id" });
    expect(route(frame({ parent: "tu-1", messageId: "msg-known" }), ctx())).toEqual({
      kind: "run",
      runId: "run-tool",
      reason: "parent_message_id",
    });
    expect(route(frame({ messageId: "msg-known" }), ctx())).toEqual({
      kind: "run",
      runId: "run-msg",
      reason: "message_id",
    });
  });

  it("an unknown identifier falls through to the next one", () => {
    expect(route(frame({ agentId: "task-unknown", messageId: "msg-known" }), ctx())).toMatchObject({
      runId: "run-msg",
      reason: "message_id",
    });
  });

  it("continues the runtime's current turn, else starts a new autonomous run", () => {
    expect(route(frame({}), ctx({ turnOwner: "run-auto" }))).toEqual({
      kind: "run",
      runId: "run-auto",
      reason: "turn_owner",
    });
    expect(route(frame({}), ctx())).toEqual({ kind: "new_autonomous", reason: "no_identifier" });
    expect(route(ev(sdk.messageStart("msg-new")), ctx())).toMatchObject({ kind: "new_autonomous" });
  });

  it("a stray user or result frame never starts a run", () => {
    expect(route(ev(sdk.toolResult("tu-unknown", "x")), ctx())).toEqual({
      kind: "metadata",
      reason: "orphan",
    });
    expect(route(ev(sdk.autonomousResult("x")), ctx())).toEqual({
      kind: "metadata",
      reason: "orphan",
    });
    expect(route(ev(sdk.toolResult("tu-1", "x")), ctx())).toMatchObject({ runId: "run-tool" });
  });

  it("metadata events route nowhere; task events are only attributed", () => {
    for (const m of [
      sdk.init(),
      sdk.sessionState("running"),
      sdk.tasksChanged([]),
      sdk.unknown(),
      sdk.ping(),
    ]) {
      expect(route(ev(m), ctx({ turnState: "foreground" }))).toEqual({
        kind: "metadata",
        reason: "metadata_event",
      });
    }
    expect(route(ev(sdk.taskNotification("task-1", "tu-9")), ctx())).toEqual({
      kind: "metadata",
      reason: "metadata_event",
      attributedRunId: "run-task",
    });
    expect(route(ev(sdk.taskStarted("task-new", "tu-1")), ctx())).toMatchObject({
      kind: "metadata",
      attributedRunId: "run-tool",
    });
  });
});

describe("route: foreground", () => {
  const fg = (bound: boolean) => ({ runId: "run-fg", userMessageUuid: "send-fg", bound });

  it("sends every non-metadata frame of a bound foreground turn to the foreground run", () => {
    const c = ctx({ turnState: "foreground", foreground: fg(true), turnOwner: "run-fg" });
    const frames = [
      sdk.text("msg-known", "x", { agentId: "task-1", parent: "tu-1" }),
      sdk.textDelta(0, "y"),
      sdk.toolResult("tu-1", "z"),
      sdk.autonomousResult("r"),
    ];
    for (const f of frames)
      expect(route(ev(f), c)).toEqual({ kind: "run", runId: "run-fg", reason: "foreground" });
  });

  it("binds on the runtime's stamp of our send", () => {
    const c = ctx({ turnState: "foreground", foreground: fg(false) });
    expect(route(ev(sdk.messageStart("msg-new", { stamp: "send-fg" })), c)).toEqual({
      kind: "run",
      runId: "run-fg",
      reason: "user_message_uuid",
    });
  });

  it("a frame stamped with an earlier send goes to that send's run, not the foreground", () => {
    const c = ctx({ turnState: "foreground", foreground: fg(true) });
    expect(route(ev(sdk.result({ stamp: "send-old" })), c)).toEqual({
      kind: "run",
      runId: "run-old",
      reason: "user_message_uuid",
    });
  });

  it("before our stamp, unstamped main-thread content belongs to the turn already running", () => {
    const c = ctx({ turnState: "foreground", foreground: fg(false) });
    expect(route(ev(sdk.messageStart("msg-new")), c)).toMatchObject({ kind: "new_autonomous" });
    expect(route(ev(sdk.text("msg-new", "x")), { ...c, turnOwner: "run-auto" })).toMatchObject({
      runId: "run-auto",
    });
    // ...and that turn's unstamped result can never complete the foreground prompt.
    expect(route(ev(sdk.autonomousResult("x")), c)).toEqual({ kind: "metadata", reason: "orphan" });
    expect(route(ev(sdk.autonomousResult("x")), { ...c, turnOwner: "run-auto" })).toMatchObject({
      runId: "run-auto",
    });
  });
});
