import type { ExecutionEventBus, ServerCallContext } from "@a2a-js/sdk/server";
import { TaskBusManager } from "../a2a/channel/bus-manager.js";
import type { Fleet } from "./fleet.js";

/**
 * The bus manager of a fleet instance: every bus it hands out is tapped, so each event a task
 * here publishes is also appended to the events table for subscribers on other instances.
 */
export class RelayingBusManager extends TaskBusManager {
  constructor(
    isLive: (taskId: string) => boolean,
    private readonly fleet: Fleet,
  ) {
    super(isLive);
  }

  override createOrGetByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus {
    const bus = super.createOrGetByTaskId(taskId, context);
    this.fleet.tap(taskId, bus);
    return bus;
  }
}
