import { resolve } from "node:path";
import { CONFIG_SEEN_FILE, PIDS_FILE } from "../common/workspace-files.js";
import { CONFIG_FILE, type Config } from "../config/schema.js";
import { SESSIONS_DB_FILE, SESSIONS_FILE } from "../store/session-map.js";

/**
 * The server's own files of one workspace, absolute: what the `"strict"` sandbox keeps sandboxed
 * commands from reading and writing (a caller could ask Claude to print a key, or to rewrite
 * another caller's tasks in the database). `configFile`: the file `--config` named. Pure.
 */
export function serverFiles(config: Config, configFile?: string | null): string[] {
  const cwd = config.claude.cwd;
  const files = [
    configFile ?? resolve(cwd, CONFIG_FILE),
    resolve(cwd, SESSIONS_FILE),
    // The memory store's session map (SQLite: with its journal files).
    ...["", "-wal", "-shm"].map((end) => resolve(cwd, `${SESSIONS_DB_FILE}${end}`)),
    // The orphan sweep stops what it lists: a command must not be able to name a process.
    resolve(cwd, PIDS_FILE),
    // What the last start recorded of the config file: a changed config must not go unnoticed.
    resolve(cwd, CONFIG_SEEN_FILE),
  ];
  if (config.store.type === "sqlite") {
    const db = resolve(cwd, config.store.path);
    files.push(db, `${db}-wal`, `${db}-shm`);
  }
  const key = config.agentCard.signing?.privateKeyFile;
  if (key !== undefined) files.push(resolve(cwd, key));
  const tls = config.server.grpc.tls;
  if (tls !== undefined) files.push(resolve(cwd, tls.keyFile));
  return [...new Set(files.map((f) => resolve(cwd, f)))];
}
