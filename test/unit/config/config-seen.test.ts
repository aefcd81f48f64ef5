import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_SEEN_FILE } from "../../../src/common/workspace-files.js";
import {
  compareConfig,
  configChange,
  describeChange,
  recordConfig,
} from "../../../src/config/config-seen.js";
import { main } from "../../../src/app/main.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function workspace(): Promise<{ cwd: string; file: string }> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), "config-seen-")));
  dirs.push(cwd);
  await mkdir(join(cwd, ".claude"));
  const file = join(cwd, ".claude", "claude-a2a.config.json");
  await writeFile(file, JSON.stringify({ server: { port: 0 } }));
  return { cwd, file };
}

describe("a config file changed since the last start", () => {
  it.each([
    [undefined, "/c.json", "aa", "first"],
    [{ file: "/other.json", sha256: "aa", at: "t" }, "/c.json", "aa", "first"],
    [{ file: "/c.json", sha256: "aa", at: "t" }, "/c.json", "aa", "same"],
    [{ file: "/c.json", sha256: "aa", at: "t" }, "/c.json", "bb", "changed"],
  ] as const)("%j against %s %s: %s", (previous, file, sha, kind) => {
    expect(compareConfig(previous, file, sha).kind).toBe(kind);
  });

  it("is recorded at each start and told at the next one", async () => {
    const { cwd, file } = await workspace();
    expect((await recordConfig(file, cwd, new Date("2026-12-01T00:00:00Z"))).kind).toBe("first");
    expect((await recordConfig(file, cwd)).kind).toBe("same");
    await writeFile(file, JSON.stringify({ claude: { sandbox: "off" } }));
    const change = await recordConfig(file, cwd);
    expect(change.kind).toBe("changed");
    if (change.kind !== "changed") return;
    expect(describeChange(change)).toMatch(
      /^the config file .+claude-a2a\.config\.json changed since the server last started with it \(20\d\d-.*; sha256 [0-9a-f]{12}… → [0-9a-f]{12}…\): check the change before trusting it$/,
    );
  });

  it("replaces a link planted at the record instead of writing through it", async () => {
    const { cwd, file } = await workspace();
    const elsewhere = join(cwd, "elsewhere.txt");
    await writeFile(elsewhere, "untouched");
    await symlink(elsewhere, join(cwd, CONFIG_SEEN_FILE));
    expect((await recordConfig(file, cwd)).kind).toBe("first");
    expect(await readFile(elsewhere, "utf8")).toBe("untouched");
    expect((await configChange(file, cwd)).kind).toBe("same");
  });

  it("--check warns of it, and writes nothing", async () => {
    const { cwd, file } = await workspace();
    await recordConfig(file, cwd);
    await writeFile(file, JSON.stringify({ server: { port: 1 } }));
    let out = "";
    await main(["--check", "--cwd", cwd], { out: (t) => (out += t), err: () => undefined });
    expect(out).toMatch(
      /^warn {2}config: the config file .* changed since the server last started/m,
    );
    expect((await configChange(file, cwd)).kind).toBe("changed");
  });
});
