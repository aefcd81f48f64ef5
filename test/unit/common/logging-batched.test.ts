/**
 * The server's JSON log lines go to standard output in batches (`batchedDestination`): each line
 * is written within a short delay while the process runs, and every buffered line when it exits,
 * normally, by process.exit() or after an uncaught exception. Each case runs in its own process
 * with its standard output a pipe, as under a supervisor.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const LOGGING = resolve("src/common/logging.ts");
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-logging-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `body` (after `log`, a logger on stdout, is made) in a process; its stdout and exit code. */
async function run(name: string, body: string, until?: (out: string) => boolean) {
  const file = join(dir, `${name}.ts`);
  await writeFile(
    file,
    `import { createLogger } from ${JSON.stringify(LOGGING)};\n` +
      `const log = createLogger({ level: "info", format: "json" });\n${body}\n`,
  );
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (until?.(out) === true) child.kill("SIGKILL");
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  return {
    code,
    lines: out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { msg?: string }),
  };
}

const messages = (lines: { msg?: string }[]) => lines.map((l) => l.msg);
const hundred = Array.from({ length: 100 }, (_, i) => `line ${i}`);

describe("batched log lines", () => {
  it.each([
    [
      "writes every line, whole and in order, when the process ends",
      "ends",
      `for (let i = 0; i < 100; i++) log.info(\`line \${i}\`);`,
      0,
      hundred,
    ],
    [
      "writes every line at process.exit()",
      "exits",
      `for (let i = 0; i < 100; i++) log.info(\`line \${i}\`);\nprocess.exit(3);`,
      3,
      hundred,
    ],
    [
      "writes every line, the last before the crash included, after an uncaught exception",
      "crashes",
      `setTimeout(() => { log.info("before the crash"); throw new Error("boom"); }, 0);`,
      1,
      ["before the crash"],
    ],
  ])(
    "%s",
    async (_name, script, body, exitCode, expected) => {
      const { code, lines } = await run(script, body);
      expect(code).toBe(exitCode);
      expect(messages(lines)).toEqual(expected);
    },
    30_000,
  );

  it("writes a line while the process goes on, without a flush or an exit", async () => {
    // Killed (SIGKILL, which no handler sees) once the line has come: it came from the timer.
    const { lines } = await run(
      "lives",
      `log.info("while running");\nsetInterval(() => {}, 1000);`,
      (out) => out.includes("\n"),
    );
    expect(messages(lines)).toEqual(["while running"]);
  }, 30_000);
});

describe("the logger's flush", () => {
  it("writes what is buffered and then calls back, as pino's flush promises", async () => {
    const { code, lines } = await run(
      "flushes",
      `log.info("flushed");\nlog.flush(() => { process.stdout.write('{"msg":"called back"}\\n'); process.exit(0); });\nsetInterval(() => {}, 1000);`,
    );
    expect(code).toBe(0);
    expect(messages(lines)).toEqual(["flushed", "called back"]);
  }, 30_000);
});
