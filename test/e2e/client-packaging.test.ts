/**
 * Packaging, as npm users meet it: the packed tarball carries a built dist/ whose bin runs (server
 * help and the client, here against a plain A2A agent); `npm exec claude-a2a` works in a clone;
 * `npm start` does not rebuild a current dist/. (The startup line: startup-line.test.ts.)
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEchoAgent } from "../support/client/echo-agent.js";

const run = promisify(execFile);
const repo = process.cwd();
let tmp: string;
let clone: string;
let tarball: string;
let files: string[];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "claude-a2a-pack-"));
  clone = join(tmp, "clone");
  // What CI and `npm install <git url>` start from: a clone, with no dist/.
  await run("git", ["clone", "--quiet", repo, clone]);
  await symlink(join(repo, "node_modules"), join(clone, "node_modules"), "dir");
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: clone,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(tmp, packed?.filename ?? "");
  files = (packed?.files ?? []).map((f) => f.path);
}, 300_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("is built by prepare: dist/ is in the tarball, sources and tests are not", () => {
    expect(files).toContain("dist/cli.js");
    expect(files).toContain("dist/client/program.js");
    // The web console, built: served at /console without a build step on the user's side.
    expect(files).toContain("dist/console/index.html");
    expect(files).toContain("dist/console/app.js");
    expect(files).toContain("config.schema.json");
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
  });

  it("has a bin that runs: the server's help, and the client against a plain A2A agent", async () => {
    const x = join(tmp, "extracted");
    await run("mkdir", ["-p", x]);
    await run("tar", ["-xzf", tarball, "-C", x]);
    const pkg = join(x, "package");
    const manifest = JSON.parse(await readFile(join(pkg, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    const bin = join(pkg, manifest.bin["claude-a2a"] ?? "missing");
    expect((await readFile(bin, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");
    // The dependencies an install would bring: the repository's own.
    await symlink(join(repo, "node_modules"), join(pkg, "node_modules"), "dir");
    const help = await run(process.execPath, [bin, "--help"]);
    expect(help.stdout).toContain("Usage: claude-a2a [serve] [options]");
    expect(help.stdout).toContain("claude-a2a chat");

    const agent = await startEchoAgent();
    const config = await mkdtemp(join(tmpdir(), "claude-a2a-pack-xdg-"));
    try {
      const sent = await run(
        process.execPath,
        [bin, "send", "--url", agent.url, "from the tarball"],
        {
          env: { ...process.env, XDG_CONFIG_HOME: config, NO_COLOR: "1" },
        },
      );
      expect(sent.stdout).toBe("echo: from the tarball\n[completed]\n");
    } finally {
      await agent.close();
      await rm(config, { recursive: true, force: true });
    }
  });

  it("npm exec claude-a2a works inside a clone", async () => {
    const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as {
      version: string;
    };
    const { stdout } = await run("npm", ["exec", "--", "claude-a2a", "--version"], {
      cwd: clone,
      timeout: 120_000,
    });
    expect(stdout.trim()).toBe(pkg.version);
    // npm exec resolves the package tree before it runs anything: on a loaded machine that alone
    // outlasted the suite's 60 s default, so the test waits as long as its own command may.
  }, 150_000);

  it("npm start does not rebuild a current dist/, and does when a source is newer", async () => {
    const pkg = JSON.parse(await readFile(join(clone, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe("node scripts/build-if-stale.js && node dist/cli.js");
    expect(pkg.scripts.prepare).toBe("npm run build");
    const check = () =>
      run(process.execPath, ["scripts/build-if-stale.js", "--check"], { cwd: clone }).then(
        (r) => ({ code: 0, err: r.stderr }),
        (e: { code: number; stderr: string }) => ({ code: e.code, err: e.stderr }),
      );
    expect(await check()).toEqual({ code: 0, err: "dist/ is up to date\n" });
    const later = new Date(Date.now() + 60_000);
    await utimes(join(clone, "src", "cli.ts"), later, later);
    expect(await check()).toEqual({ code: 1, err: "dist/ is stale\n" });
    // The web console's sources count too.
    await utimes(join(clone, "src", "cli.ts"), new Date(0), new Date(0));
    expect(await check()).toEqual({ code: 0, err: "dist/ is up to date\n" });
    await utimes(join(clone, "console", "app.ts"), later, later);
    expect(await check()).toEqual({ code: 1, err: "dist/ is stale\n" });
  });
});
