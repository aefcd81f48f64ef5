/**
 * Storage faults (docs/reliability.md "Faults"), with the real runtime and the official client:
 * the SQLite store on a filesystem with no room left. The first write that fails is a clear
 * error to the caller and in the log, the server does not crash, and earlier tasks are intact.
 */
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { STORE_FAULT_TEXT } from "../../src/contract/store-faults.js";
import { describeStream, says } from "../support/harness/index.js";
import { a2aStoringIn, fill, smallFilesystemForFile } from "../support/harness/small-filesystem.js";

const mounted = await smallFilesystemForFile("claude-a2a-full-");

describe("SQLite without room", () => {
  it.skipIf(mounted === undefined)(
    "the first failing write is a clear error to the caller and in the log; no crash; earlier tasks intact (skipped where tmpfs cannot be mounted: not root)",
    async () => {
      const dir = mounted ?? "";
      const lines: string[] = [];
      const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
      const h = await a2aStoringIn(dir, {
        logger,
        rules: [says("Hello", "Hi there.", "hi")],
      });
      const earlier = await h.send("Hello");
      expect(earlier.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      await fill(join(dir, "filler"));
      const refused = await h.stream("Hello again").then(
        (events) => ({ events, error: undefined }),
        (error: unknown) => ({ events: [], error: String(error) }),
      );
      // The caller is told the store is full, by an error or by the task's failure.
      const told = refused.error ?? describeStream(refused.events).join(" ");
      expect(told).toContain(STORE_FAULT_TEXT.full);
      expect(lines.some((l) => /store write failed|database or disk is full/.test(l))).toBe(true);

      // Still up, and what was stored before is as it was.
      const health = await fetch(`${h.server.url}/healthz`);
      expect([200, 503]).toContain(health.status);
      const again = await h.client.getTask({ tenant: "", id: earlier.id, historyLength: 0 });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(again.artifacts.length).toBe(earlier.artifacts.length);
    },
    120_000,
  );
});
