/**
 * Install from anywhere (issue 49): the packed tarball installed globally into a temporary
 * prefix, as docs/operations.md says (`npm install -g --allow-scripts=better-sqlite3 <tarball>`,
 * the Claude Code runtime, an optional dependency, included); then, from directories outside the
 * clone, `claude-a2a --check`, a server started from that install on the scripted model (its
 * startup line names `claude-a2a`, which works there), and `claude-a2a send` to it.
 *
 * The install fetches the dependencies (npm's cache first) and builds better-sqlite3: about two
 * minutes on a 2-core machine, hence the long timeouts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModel } from "../support/fake-model/index.js";
import { freePort, says } from "../support/harness/index.js";
import { commandInTerminal, KEY, type Terminal } from "../support/client/pty.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "../support/sandbox.js";

const run = promisify(execFile);
const repo = process.cwd();
const INSTALL_TIMEOUT = 600_000;
let tmp: string;
let prefix: string;

/** npm's environment without what an `npm run` or `npm test` above this one set for itself. */
const npmEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")),
  );

beforeAll(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-install-")));
  prefix = join(tmp, "prefix");
  // dist/ is built (the CLI's tests run it): packed as it is, without building it again.
  await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], {
    cwd: repo,
    env: npmEnv(),
    timeout: 120_000,
  });
  const [tarball] = (await readdir(tmp)).filter((f) => f.endsWith(".tgz"));
  await run(
    "npm",
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      "--allow-scripts=better-sqlite3",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(tmp, tarball ?? "missing.tgz"),
    ],
    { cwd: tmp, env: npmEnv(), timeout: INSTALL_TIMEOUT, maxBuffer: 16 * 1024 * 1024 },
  );
}, INSTALL_TIMEOUT + 120_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("claude-a2a installed from the packed tarball", () => {
  let model: FakeModel | undefined;
  let sandbox: RuntimeSandbox | undefined;
  let term: Terminal | undefined;
  afterAll(async () => {
    term?.kill();
    await term?.exited;
    await model?.close();
    await sandbox?.cleanup();
  });

  it("runs --check, serves and answers send from directories outside the clone", async () => {
    model = await FakeModel.start({ rules: [says("Hello", "Hi from the install.")] });
    sandbox = await createRuntimeSandbox({ modelUrl: model.url });
    const bin = join(prefix, "bin");
    // What a shell has after a global install: npm's bin folder on PATH, beside node.
    const env = {
      ...sandbox.env,
      PATH: [bin, dirname(process.execPath), sandbox.env.PATH].join(delimiter),
      NO_COLOR: "1",
    };
    expect(repo.startsWith(tmp) || sandbox.cwd.startsWith(repo)).toBe(false);
    const port = await freePort();

    const check = await run("claude-a2a", ["--check", "--port", String(port)], {
      cwd: sandbox.cwd,
      env,
    });
    expect(check.stdout).toContain(
      `ok    runtime: ${join(prefix, "lib", "node_modules", "claude-a2a", "node_modules", "@anthropic-ai")}`,
    );
    expect(check.stdout).toContain(`ok    workspace: ${sandbox.cwd}`);

    // The server, on a terminal (where its startup line shows), run as a person types it.
    term = commandInTerminal(join(bin, "claude-a2a"), ["--port", String(port)], env, sandbox.cwd);
    const url = `http://127.0.0.1:${port}`;
    await term.waitFor(`claude-a2a: serving ${sandbox.cwd}`, { timeoutMs: 60_000 });
    expect(term.text()).toContain(`talk to it with: claude-a2a chat --url ${url};`);

    // The client, from yet another directory.
    const elsewhere = await realpath(await mkdtemp(join(tmp, "elsewhere-")));
    const sent = await run("claude-a2a", ["send", "--url", url, "Hello"], {
      cwd: elsewhere,
      env: { ...env, XDG_CONFIG_HOME: elsewhere },
    });
    expect(sent.stderr).toBe("");
    expect(sent.stdout).toMatch(/^Hi from the install\.\n\[completed\] \$[\d.]+ · /);
    expect(model.unmatched).toEqual([]);

    term.write(KEY.ctrlC);
    expect(await term.exited).toBe(0);
    term = undefined;
  }, 180_000);

  it("serves a project offline with the README's command and the example rules it ships", async () => {
    // No credential and no model of the test's: the command's own scripted model answers.
    const project = await realpath(await mkdtemp(join(tmp, "offline-project-")));
    const home = await realpath(await mkdtemp(join(tmp, "offline-home-")));
    const bin = join(prefix, "bin");
    const env = {
      PATH: [bin, dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
      HOME: home,
      TMPDIR: tmp,
      NO_COLOR: "1",
      // `npm root -g` of a shell whose global prefix is the test's.
      npm_config_prefix: prefix,
    };
    const port = await freePort();
    const readme = await readFile(join(repo, "README.md"), "utf8");
    const command = /^claude-a2a serve --scripted .*$/m.exec(readme)?.[0];
    expect(command, "the README's offline command").toBeDefined();
    term = commandInTerminal("sh", ["-c", `${command} --port ${port}`], env, project);
    const url = `http://127.0.0.1:${port}`;
    await term.waitFor(`claude-a2a: serving ${project}`, { timeoutMs: 60_000 });
    const sent = await run("claude-a2a", ["send", "--url", url, "Hello"], {
      cwd: home,
      env: { ...env, XDG_CONFIG_HOME: home },
    });
    expect(sent.stdout).toContain("Hello! I am a scripted model");
    expect(sent.stdout).toContain("[completed]");
    term.write(KEY.ctrlC);
    expect(await term.exited).toBe(0);
    term = undefined;
  }, 180_000);
});
