import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/app/main.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const dir = useTempDir("a2a-doctor-ws-", async (d) => {
  await mkdir(join(d, "api"));
  await mkdir(join(d, "web"));
});

async function check(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  // Started in `dir()`: the flags' relative directories resolve against it.
  const code = await main(
    ["--check", ...args],
    { out: (t) => (out += t), err: (t) => (out += t) },
    { cwd: dir() },
  );
  return { code, out };
}

describe("claude-a2a --check with workspaces", () => {
  it("checks each workspace's directory and store, naming the workspace", async () => {
    const { out } = await check(["--workspace", "api=api", "--workspace", "web=web"]);
    for (const name of ["api", "web"]) {
      expect(out).toContain(`ok    workspace ${name}: ${join(dir(), name)} (writable)`);
      expect(out).toMatch(new RegExp(`ok    store ${name}: sqlite ${join(dir(), name)}`));
    }
    expect(out).not.toMatch(/^ok {4}workspace:/m);
  });

  it("fails the config on a bad workspace, naming it", async () => {
    const { code, out } = await check(["--workspace", "api=api", "--workspace", "gone=nope"]);
    expect(code).toBe(1);
    expect(out).toContain(
      `FAIL  config: Workspace "gone": no such directory: ${join(dir(), "nope")}`,
    );
  });

  it("main refuses a malformed --workspace before starting anything", async () => {
    let err = "";
    const code = await main(
      ["--workspace", "api"],
      { out: () => undefined, err: (t) => (err += t) },
      { cwd: dir() },
    );
    expect(code).toBe(1);
    expect(err).toBe(
      'claude-a2a: Invalid option --workspace: expected <name>=<directory>, got "api"\n',
    );
  });
});
