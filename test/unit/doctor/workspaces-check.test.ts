import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../src/app/main.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-doctor-ws-"));
  await mkdir(join(dir, "api"));
  await mkdir(join(dir, "web"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function check(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  // Started in `dir`: the flags' relative directories resolve against it.
  const code = await main(
    ["--check", ...args],
    { out: (t) => (out += t), err: (t) => (out += t) },
    { cwd: dir },
  );
  return { code, out };
}

describe("claude-a2a --check with workspaces", () => {
  it("checks each workspace's directory and store, naming the workspace", async () => {
    const { out } = await check(["--workspace", "api=api", "--workspace", "web=web"]);
    for (const name of ["api", "web"]) {
      expect(out).toContain(`ok    workspace ${name}: ${join(dir, name)} (writable)`);
      expect(out).toMatch(new RegExp(`ok    store ${name}: sqlite ${join(dir, name)}`));
    }
    expect(out).not.toMatch(/^ok {4}workspace:/m);
  });

  it("fails the config on a bad workspace, naming it", async () => {
    const { code, out } = await check(["--workspace", "api=api", "--workspace", "gone=nope"]);
    expect(code).toBe(1);
    expect(out).toContain(
      `FAIL  config: Workspace "gone": no such directory: ${join(dir, "nope")}`,
    );
  });

  it("main refuses a malformed --workspace before starting anything", async () => {
    let err = "";
    const code = await main(
      ["--workspace", "api"],
      { out: () => undefined, err: (t) => (err += t) },
      { cwd: dir },
    );
    expect(code).toBe(1);
    expect(err).toBe(
      'claude-a2a: Invalid option --workspace: expected <name>=<directory>, got "api"\n',
    );
  });
});
