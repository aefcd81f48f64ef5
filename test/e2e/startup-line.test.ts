/**
 * The server's one human startup line: on a terminal, beside the JSON log, it says which
 * directory it serves at which URL, how to talk to it (`npx claude-a2a` from a clone, plain
 * `claude-a2a` from a global install) and where its console is; off a terminal only the log
 * says so (its `claude-a2a listening` record, with the console's URL).
 */
import { cp, mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../support/a2a/harness.js";
import { runInTerminal, KEY, type Terminal } from "../support/client/pty.js";
import { spawnServer } from "../support/server-process.js";

const repo = process.cwd();
let dir: string;
let term: Terminal | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-served-")));
});
afterEach(async () => {
  term?.kill();
  await term?.exited;
  term = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The human lines a terminal shows (the JSON log lines set aside). */
const humanLines = (t: Terminal) =>
  t
    .text()
    .split("\n")
    .filter((l) => !l.startsWith("{") && l.trim() !== "");

// JSON lines even on a terminal (where the default is pretty), so they are told apart.
const env = { ...process.env, LOG_LEVEL: "info", LOG_FORMAT: "json" };

describe("the server's startup line", () => {
  it("on a terminal, from a clone: npx claude-a2a, and the console URL", async () => {
    const port = await freePort();
    const work = join(dir, "work");
    await mkdir(work);
    term = runInTerminal(["--cwd", work, "--port", String(port)], env, repo);
    const url = `http://127.0.0.1:${port}`;
    await term.waitFor('"msg":"claude-a2a listening"');
    await term.waitFor(`claude-a2a: serving ${work}`);
    expect(humanLines(term)).toEqual([
      `claude-a2a: serving ${work} at ${url} (Ctrl-C stops; talk to it with: npx claude-a2a chat --url ${url}; console: ${url}/console/)`,
    ]);
    term.write(KEY.ctrlC);
    expect(await term.exited).toBe(0);
  });

  it("on a terminal, from a global install: plain claude-a2a, a line per workspace", async () => {
    // A global install's layout: <prefix>/lib/node_modules/claude-a2a, no package.json above.
    const pkg = join(dir, "prefix", "lib", "node_modules", "claude-a2a");
    await mkdir(pkg, { recursive: true });
    await cp(join(repo, "dist"), join(pkg, "dist"), { recursive: true });
    await cp(join(repo, "package.json"), join(pkg, "package.json"));
    await symlink(join(repo, "node_modules"), join(pkg, "node_modules"), "dir");
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    await Promise.all([mkdir(a), mkdir(b)]);
    const port = await freePort();
    term = runInTerminal(
      ["--port", String(port), "--workspace", `a=${a}`, "--workspace", `b=${b}`],
      env,
      dir,
      join(pkg, "dist", "cli.js"),
    );
    const url = `http://127.0.0.1:${port}`;
    await term.waitFor('"msg":"claude-a2a listening"');
    await term.waitFor(`claude-a2a: serving ${b}`);
    expect(humanLines(term)).toEqual(
      ["a", "b"].map(
        (name) =>
          `claude-a2a: serving ${join(dir, name)} at ${url}/agents/${name}/ (Ctrl-C stops; talk to it with: claude-a2a chat --url ${url}/agents/${name}/; console: ${url}/agents/${name}/console/)`,
      ),
    );
    term.write(KEY.ctrlC);
    expect(await term.exited).toBe(0);
  });

  it("off a terminal: no human line on standard error; the log record names the console", async () => {
    const port = await freePort();
    const server = await spawnServer({
      cwd: dir,
      port,
      env: { PATH: process.env.PATH ?? "", HOME: dir },
    });
    try {
      const url = `http://127.0.0.1:${port}`;
      const listening = server
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => r.msg === "claude-a2a listening");
      expect(listening).toMatchObject({ url, console: `${url}/console/`, cwd: dir });
      expect(server.stderr()).not.toContain("claude-a2a: serving");
    } finally {
      server.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
    }
  });
});
