import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import type { RecoveredUsage } from "../store/recovery.js";
import { Fleet } from "./fleet.js";
import { instanceIdOf } from "./instance-id.js";

export type { Fleet };
// What the wiring adds to the request stack, and builds in place of the single server's bus manager.
export { FleetRequestHandler } from "./fleet-request-handler.js";
export { RelayingBusManager } from "./relaying-bus-manager.js";

/** This server's instance id in a fleet (`server.instanceId`, else derived from host and path). */
export const instanceOf = (config: Config): string =>
  instanceIdOf(config.server.instanceId, hostname(), config.claude.cwd);

/**
 * The fleet instance of this server when its store is PostgreSQL (undefined otherwise: with
 * SQLite or memory there is one server, and nothing of the fleet runs). Opened after the task
 * store (its recovery reads the SDK's tables), it recovers at once and starts its heartbeat.
 */
export async function openFleetOf(
  config: Config,
  logger: Logger,
  metrics: { readonly registry: Registry },
  stores: { close(): Promise<void> },
  recoveredUsage?: RecoveredUsage,
): Promise<Fleet | undefined> {
  try {
    return await openFleet(config, logger, metrics.registry, recoveredUsage);
  } catch (err) {
    // The store opened first: a fleet that cannot start closes it too.
    await stores.close();
    throw err;
  }
}

async function openFleet(
  config: Config,
  logger: Logger,
  registry: Registry,
  recoveredUsage: RecoveredUsage | undefined,
): Promise<Fleet | undefined> {
  if (config.store.type !== "postgres") return undefined;
  const instanceId = instanceOf(config);
  const fleet = await Fleet.open({
    url: config.store.url,
    instanceId,
    config: config.fleet,
    logger: logger.child({ component: "fleet", instanceId }),
    registry,
    recoveredUsage,
  });
  try {
    await fleet.recoverAtStartup();
  } catch (err) {
    await fleet.close();
    throw err;
  }
  fleet.start();
  return fleet;
}
