/** The request handler stack is one list, run in its order (src/app/request-stack.ts). */
import type { GetTaskRequest, Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { TaskBusManager } from "../../../src/a2a/channel/bus-manager.js";
import { GenerationsRequestHandler } from "../../../src/a2a/handler/generations-handler.js";
import { HandlerLayer } from "../../../src/a2a/handler/handler-layer.js";
import { OperatorRequestHandler } from "../../../src/a2a/handler/operator-request-handler.js";
import { requestStack, stacked, type Layer } from "../../../src/app/request-stack.js";
import { resolveConfig } from "../../../src/config/load.js";
import { KeptEvents } from "../../../src/store/kept-events.js";
import { pino } from "pino";

/** A layer that notes its name on the way down and on the way back up. */
class Noting extends HandlerLayer {
  constructor(
    inner: A2ARequestHandler,
    private readonly name: string,
    private readonly seen: string[],
  ) {
    super(inner);
  }
  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    this.seen.push(`${this.name} in`);
    const task = await this.inner.getTask(params, context);
    this.seen.push(`${this.name} out`);
    return task;
  }
}

const base = (seen: string[]): A2ARequestHandler =>
  ({
    getTask: () => {
      seen.push("base");
      return Promise.resolve({ id: "t" } as Task);
    },
  }) as unknown as A2ARequestHandler;

describe("stacked", () => {
  const noting =
    (name: string, seen: string[]): Layer =>
    (inner) =>
      new Noting(inner, name, seen);
  it.each([
    { layers: [], want: ["base"] },
    { layers: ["a"], want: ["a in", "base", "a out"] },
    { layers: ["a", "b", "c"], want: ["a in", "b in", "c in", "base", "c out", "b out", "a out"] },
    { layers: ["a", undefined, "c"], want: ["a in", "c in", "base", "c out", "a out"] },
  ])("runs $layers in list order, then the base", async ({ layers, want }) => {
    const seen: string[] = [];
    const handler = stacked(
      layers.map((name) => name !== undefined && noting(name, seen)),
      base(seen),
    );
    await handler.getTask({ tenant: "", id: "t" }, new ServerCallContext());
    expect(seen).toEqual(want);
  });
});

describe("requestStack", () => {
  const config = resolveConfig({}, { file: "test.json", startDir: "/work" });
  const parts = {
    card: buildAgentCard(config, { version: "0.0.0" }),
    taskStore: new InMemoryTaskStore(),
    executor: {
      execute: () => Promise.resolve(),
      cancelTask: () => Promise.resolve(),
      isActive: () => false,
      liveState: () => undefined,
      claimAnswer: () => undefined,
      releaseClaim: () => undefined,
      takeRefusal: () => undefined,
    },
    busManager: new TaskBusManager(() => false),
  };

  it("puts the operator role on top without replay, the generations with it", async () => {
    expect(requestStack(parts)).toBeInstanceOf(OperatorRequestHandler);
    const log = new KeptEvents({ retainMs: 60_000, logger: pino({ level: "silent" }) });
    try {
      const replay = { log, workspace: "", logger: pino({ level: "silent" }) };
      expect(requestStack({ ...parts, replay })).toBeInstanceOf(GenerationsRequestHandler);
    } finally {
      await log.close();
    }
  });
});
