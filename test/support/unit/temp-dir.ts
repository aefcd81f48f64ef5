/**
 * A fresh directory for each test of the file or `describe` that calls `useTempDir`, removed
 * after the test: the before/after pair unit tests of files and configs each wrote out.
 */
import { afterEach, beforeEach } from "vitest";
import { tempDir, type TempDir } from "../harness/temp.js";

/** Registers the hooks; the function it returns gives the running test's directory. */
export function useTempDir(prefix: string, prepare?: (dir: string) => Promise<void>): () => string {
  let current: TempDir | undefined;
  beforeEach(async () => {
    current = await tempDir(prefix);
    await prepare?.(current.path);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error("useTempDir: read outside a test");
    return current.path;
  };
}
