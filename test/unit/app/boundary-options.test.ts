import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processBoundary } from "../../../src/app/boundary-options.js";
import { resolveConfig } from "../../../src/config/load.js";
import { sandboxSettings } from "../../../src/sandbox/preset.js";
import { workspaceBoundary } from "../../../src/sandbox/workspace-boundary.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function boundaryIn(): Promise<{
  root: string;
  b: NonNullable<ReturnType<typeof workspaceBoundary>>;
}> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "boundary-options-")));
  dirs.push(root);
  const config = resolveConfig({ claude: { sandbox: "strict" } }, { file: "<t>", startDir: root });
  const b = workspaceBoundary(config, sandboxSettings("strict", { serverFiles: [] }), {
    serverFiles: [],
    env: { HOME: root, CLAUDE_CODE_TMPDIR: root },
    strict: true,
  });
  if (b === undefined) throw new Error("no boundary");
  return { root, b };
}

const recorded: [string, string | undefined][] = [];
const options = (root: string) => ({
  settingSources: ["user", "project", "local"] as const,
  cwd: root,
  sdkOptions: {},
  env: { PATH: "/usr/bin", ANTHROPIC_API_KEY: "k" },
  session: () => ({
    recordRefusal: (id: string, v: { kind?: string }) => void recorded.push([id, v.kind]),
  }),
  owner: () => undefined,
});

describe("a process's part of the boundary", () => {
  it("gets a private temp dir of its own, gone at cleanup, and the runtime's settings", async () => {
    const { root, b } = await boundaryIn();
    const p = processBoundary(b, {
      ...options(root),
      settingSources: [...options(root).settingSources],
    });
    expect(p.tmp.startsWith(`${b.tmpRoot}/`)).toBe(true);
    expect((await stat(p.tmp)).mode & 0o777).toBe(0o700);
    expect(p.options.env).toMatchObject({ CLAUDE_CODE_TMPDIR: p.tmp, ANTHROPIC_API_KEY: "k" });
    expect(p.options.settingSources).toEqual(["user"]);
    expect(p.options.sdkOptions).toMatchObject({ strictMcpConfig: true });
    const other = processBoundary(b, { ...options(root), settingSources: [] });
    expect(other.tmp).not.toBe(p.tmp);
    p.cleanup();
    expect(existsSync(p.tmp)).toBe(false);
    expect(existsSync(other.tmp)).toBe(true);
  });

  it("refuses and records a request that would widen the sandbox, and only that", async () => {
    const { root, b } = await boundaryIn();
    const p = processBoundary(b, { ...options(root), settingSources: [] });
    expect(p.refuseWidening("SandboxNetworkAccess", { host: "evil.example" }, "t1")).toMatchObject({
      behavior: "deny",
    });
    expect(p.refuseWidening("Bash", { command: "ls" }, "t2")).toBeUndefined();
    expect(recorded).toEqual([["t1", "network"]]);
  });

  it.each([
    ["a link", async (dir: string, target: string) => symlink(target, dir)],
    [
      "a folder others may enter",
      async (dir: string) => {
        await mkdir(dir);
        await chmod(dir, 0o777);
      },
    ],
  ])("refuses a temp root that is %s", async (_what, plant) => {
    const { root, b } = await boundaryIn();
    const elsewhere = join(root, "elsewhere");
    await mkdir(elsewhere);
    await plant(b.tmpRoot, elsewhere);
    expect(() => processBoundary(b, { ...options(root), settingSources: [] })).toThrow(
      /is not a private folder of this user's/,
    );
  });
});
