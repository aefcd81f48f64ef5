/** The session map a server keeps in its workspace: which conversation maps to which session. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { SESSIONS_FILE } from "../../../src/store/session-map.js";

/** The map's keys in workspace `cwd` (each `[caller, contextId]` as JSON), sorted. */
export async function mappedSessionKeys(cwd: string): Promise<string[]> {
  const map = JSON.parse(await readFile(join(cwd, SESSIONS_FILE), "utf8")) as {
    sessions: Record<string, unknown>;
  };
  return Object.keys(map.sessions).sort();
}
