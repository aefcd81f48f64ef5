import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir {
  readonly path: string;
  close(): Promise<void>;
}

/** A fresh directory under the system's temp dir, removed by `close()`. */
export async function tempDir(prefix = "claude-a2a-test-"): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, close: () => rm(path, { recursive: true, force: true }) };
}
