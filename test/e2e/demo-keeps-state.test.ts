/**
 * `claude-a2a demo --dir <project>` on a project the real server has served: the demo keeps its
 * session map and pid file in its own temporary folder (docs/demo.md), so every mapping of the
 * real server's conversations survives, and its store is untouched.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBench, type TestBench } from "../support/bench.js";
import { spawnServer, writeTestConfig } from "../support/server-process.js";
import { runClientCommand, startDemo } from "../support/demo/demo-process.js";
import { freePort } from "../support/harness/ports.js";
import { tempDir, type TempDir } from "../support/harness/temp.js";
import { SESSIONS_DB_FILE } from "../../src/store/session-map.js";
import { readSessionMap } from "../support/harness/session-map.js";
import { DEFAULT_SQLITE_PATH } from "../../src/config/schema.js";

const digest = async (file: string) =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");

describe("the demo on a project the real server served", () => {
  let bench: TestBench;
  let home: TempDir;
  beforeAll(async () => {
    bench = await startTestBench();
    home = await tempDir("claude-a2a-demo-home-");
  });
  afterAll(async () => {
    await bench.close();
    await home.close();
  });

  it("leaves every mapping and the store as they were", async () => {
    const project = bench.sandbox.cwd;
    await writeTestConfig(project, { store: { type: "sqlite", path: DEFAULT_SQLITE_PATH } });
    const server = await spawnServer({
      cwd: project,
      port: await freePort(),
      env: bench.sandbox.env,
      built: true,
    });
    const clientEnv = { PATH: process.env.PATH ?? "", HOME: home.path };
    try {
      for (const text of ["one", "two", "three"]) {
        const r = await runClientCommand(["send", "--url", server.url, "--new", text], clientEnv);
        expect(r.output).toContain("[completed]");
      }
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
    // The map is in the project's store: its digest below covers it.
    const before = readSessionMap(project);
    expect(before.size).toBe(3);
    const storeDigest = await digest(join(project, DEFAULT_SQLITE_PATH));

    const demo = await startDemo({
      port: await freePort(),
      env: clientEnv,
      args: ["--dir", project, "--no-chat"],
    });
    try {
      const r = await runClientCommand(["send", "--url", demo.url, "--new", "Hello"], clientEnv);
      expect(r.output).toContain("[completed]");
    } finally {
      expect(await demo.stop()).toBe(0);
    }
    expect(readSessionMap(project), demo.output()).toEqual(before);
    // The demo's own map went to its state folder, not beside the project's.
    expect(existsSync(join(project, SESSIONS_DB_FILE))).toBe(false);
    expect(await digest(join(project, DEFAULT_SQLITE_PATH))).toBe(storeDigest);
  }, 180_000);
});
