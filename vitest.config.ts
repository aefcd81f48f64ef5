import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // CI machines are loaded: 5 s is too little for a test that starts a database or a
          // process, and a unit test that hangs still fails.
          testTimeout: 30_000,
          // `expect.poll` waits 1 s by default, too little on a loaded CI machine.
          expect: { poll: { timeout: 10_000 } },
          // One module graph per worker, not per file: importing the sources again for each of
          // 220 files was most of the unit run (import 155 s of 404 s at a load of 6; 109 s in
          // all without). A test that leaves global state behind (env, timers, listeners) must
          // restore it: `--sequence.shuffle.files` checks the order does not matter.
          isolate: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          // Each e2e test spawns real Claude Code processes: one file at a time on CI's 2 cores.
          // Every file's servers, sandboxes, ports and processes are its own (test/support/harness),
          // so E2E_WORKERS=2 runs two files at once on a bigger machine (not yet proven on CI's).
          maxWorkers: Number(process.env.E2E_WORKERS ?? 1),
          // One module graph per worker, as the unit tests: a file's servers, stores and
          // registries are its own objects, never module state. Imports took ~4.7 s per file
          // isolated (72 files); 9 s in all for the whole suite without.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 30_000,
          // `expect.poll` waits 1 s by default: under two busy loops a stream's first event took
          // longer (a2a-lifecycle). An e2e condition is polled until it holds, within the test's time.
          expect: { poll: { timeout: 30_000 } },
        },
      },
      {
        test: {
          // `npm run smoke`: against a server that is already running (A2A_URL), maybe with a
          // real model, so the limits are generous. Not part of `npm test`.
          name: "smoke",
          include: ["test/smoke/**/*.test.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
