import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { main, USAGE } from "../../src/app/main.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("claude-a2a command line", () => {
  it("prints the package version", async () => {
    expect(await run(["--version"])).toEqual({ code: 0, out: `${pkg.version}\n`, err: "" });
    expect((await run(["-v"])).out).toBe(`${pkg.version}\n`);
  });

  it("prints help", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(USAGE);
    expect(r.out).toContain("--version");
  });

  it("rejects an unknown flag with exit code 2 and the usage", async () => {
    const r = await run(["--bogus"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("Unknown option '--bogus'");
    expect(r.err).toContain("Usage: claude-a2a");
  });

  it("is the package's bin and runs as a process", async () => {
    expect(pkg.bin["claude-a2a"]).toBe("dist/cli.js");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "src/cli.ts", "--version"],
      { cwd: new URL("../..", import.meta.url) },
    );
    expect(stdout).toBe(`${pkg.version}\n`);
  }, 60_000); // a process that compiles TypeScript at start: slow on a loaded machine

  it("refuses an unknown LOG_LEVEL with a clear message", async () => {
    const saved = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "loud";
    try {
      const r = await run([]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        'claude-a2a: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "loud".\n',
      );
    } finally {
      if (saved === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved;
    }
  });
});
