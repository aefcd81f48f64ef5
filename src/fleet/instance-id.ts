import { createHash } from "node:crypto";
import { basename, resolve } from "node:path";

/**
 * The default instance id of a server: `<host>/<workspace folder>-<8 hex of the absolute path>`,
 * e.g. `build-1/api-3f2a9c1e`. Stable across restarts of the same workspace on the same host,
 * different for two workspaces served from one host (the hash tells apart two folders of the same
 * name). Pure: the caller passes `os.hostname()` and the workspace path.
 */
export function deriveInstanceId(host: string, workspace: string): string {
  const path = resolve(workspace);
  const hash = createHash("sha256").update(path).digest("hex").slice(0, 8);
  const folder = basename(path) || "root";
  return `${host.trim() || "localhost"}/${folder}-${hash}`;
}

/** `server.instanceId` when set, else the derived default. Pure. */
export function instanceIdOf(configured: string | undefined, host: string, workspace: string) {
  return configured ?? deriveInstanceId(host, workspace);
}
