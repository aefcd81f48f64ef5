import { mkdir } from "node:fs/promises";
import type { TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { Config } from "../config/schema.js";
import * as fleets from "../fleet/open.js";
import { upgradeSessionKey } from "../identity/conversation.js";
import { OrphanGuard } from "../sessions/orphans.js";
import type { RecoveredUsage } from "../store/recovery.js";
import type { SessionMap } from "../store/session-map.js";
import { openLocalSessionMap, openStoreSessionMap } from "../store/open-session-map.js";
import { memoryStores, openTaskStores, type TaskStores } from "../store/task-stores.js";
import { transcriptRecoveredUsage } from "./recovered-usage.js";

/** What a served directory keeps across restarts: its stores, its conversation map, its pid file. */
export interface WorkspaceState {
  readonly orphans: OrphanGuard;
  readonly stores: TaskStores;
  readonly sessionMap: SessionMap;
  /** A restarted task's usage, read from its conversation's transcript (store/recovery.ts). */
  readonly recoveredUsage: RecoveredUsage;
}

export interface WorkspaceStateOptions {
  readonly logger: Logger;
  /** Where the map and the pid file live instead of the workspace (`AgentOptions.stateDir`). */
  readonly stateDir: string | undefined;
  /** A store given by the caller (tests): the map then lives in a file of its own. */
  readonly taskStore: TaskStore | undefined;
  /** The environment Claude Code runs with (where its transcripts are). */
  readonly claudeEnv: Record<string, string | undefined> | undefined;
}

/**
 * Opens it in the order restart recovery needs: first what a killed predecessor left running in
 * this workspace is stopped (before any session resumes or a transcript is read), then the stores,
 * with the map in the task store's database (the map file of earlier versions imported) before
 * recovery reads it; with the memory store, the map is a file of its own.
 */
export async function openWorkspaceState(
  config: Config,
  o: WorkspaceStateOptions,
): Promise<WorkspaceState> {
  const { logger } = o;
  const cwd = config.claude.cwd;
  const stateDir = o.stateDir ?? cwd;
  if (o.stateDir !== undefined) await mkdir(o.stateDir, { recursive: true });
  const orphans = new OrphanGuard({
    cwd: stateDir,
    logger: logger.child({ component: "orphans" }),
  });
  await orphans.stopPredecessor();
  const mapOptions = { cwd: stateDir, logger, upgradeKey: upgradeSessionKey };
  let storeMap: SessionMap | undefined;
  const recoveredUsage = transcriptRecoveredUsage(
    { get: (key) => storeMap?.get(key) },
    o.claudeEnv,
  );
  const stores: TaskStores = o.taskStore
    ? memoryStores(o.taskStore)
    : await openTaskStores({
        store: config.store,
        cwd,
        logger: logger.child({ component: "store" }),
        operators: config.server.operators.length > 0,
        failUnfinished: config.store.type !== "postgres", // the fleet recovers (src/fleet/)
        recoveredUsage,
        opened: async (db, type) => {
          const instance = type === "postgres" ? fleets.instanceOf(config) : "";
          storeMap = await openStoreSessionMap({ ...mapOptions, db, type, instance });
        },
      });
  const sessionMap = storeMap ?? (await openLocalSessionMap(mapOptions));
  return { orphans, stores, sessionMap, recoveredUsage };
}
