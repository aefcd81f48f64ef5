import type { Logger } from "pino";
import { RetryingPushSender } from "../a2a/push/sender.js";
import { pushTargetPolicy, type PushTargetPolicy } from "../a2a/push/target.js";
import type { Config } from "../config/schema.js";
import type { Fleet } from "../fleet/open.js";
import type { ServerMetrics } from "../metrics/metrics.js";
import { FLEET_EVENTS_DELAY_MS, KeptEvents, LIVE_EVENTS_DELAY_MS } from "../store/kept-events.js";
import type { TaskStores } from "../store/task-stores.js";
import type { Tracing } from "../tracing/tracing.js";

/** Where a task's events go besides its live streams: push notifications and the replay log. */
export interface TaskOutputs {
  /** Which push-notification URLs are allowed (`server.pushAllowPrivateNetworks`). */
  readonly pushTargets: PushTargetPolicy;
  /** Undefined when the card does not offer push notifications. */
  readonly pushSender: RetryingPushSender | undefined;
  readonly push: { store: TaskStores["pushStore"]; sender: RetryingPushSender } | undefined;
  /** Numbered events kept for replay, and the sends already seen; undefined with replay off. */
  readonly replay: KeptEvents | undefined;
}

export interface TaskOutputsOptions {
  readonly stores: TaskStores;
  readonly fleet: Fleet | undefined;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  readonly tracing: Tracing;
  /** A live task's W3C trace-context headers (the executor's, built after this). */
  readonly traceHeaders: (taskId: string) => Record<string, string>;
}

export function openTaskOutputs(config: Config, o: TaskOutputsOptions): TaskOutputs {
  const { stores, fleet, logger } = o;
  const pushTargets = pushTargetPolicy(config.server.pushAllowPrivateNetworks);
  const pushSender = config.agentCard.capabilities.pushNotifications
    ? new RetryingPushSender(stores.pushStore, logger.child({ component: "push" }), {
        targets: pushTargets,
        compatV03: config.server.compat.v03,
        onDrop: (reason) => o.metrics.countPushDrop(reason),
        ...(o.tracing.enabled && { traceHeaders: o.traceHeaders }),
      })
    : undefined;
  // On a fleet, the replay table is also what the events are relayed from (one write each)
  // (docs/reliability.md).
  const replayLog = { flush: (): Promise<void> => replay?.flush() ?? Promise.resolve() };
  const replayBackend =
    config.replay.enabled && stores.replayBackend && fleet
      ? fleet.relayReplay(stores.replayBackend, replayLog)
      : stores.replayBackend;
  const replay: KeptEvents | undefined = config.replay.enabled
    ? new KeptEvents({
        ...(replayBackend && { backend: replayBackend }),
        // A single server reads its live tasks' events from memory: fewer, larger writes.
        delayMs: fleet ? FLEET_EVENTS_DELAY_MS : LIVE_EVENTS_DELAY_MS,
        retainMs: config.replay.retainMs,
        logger: logger.child({ component: "replay" }),
      })
    : undefined;
  return {
    pushTargets,
    pushSender,
    push: pushSender && { store: stores.pushStore, sender: pushSender },
    replay,
  };
}
