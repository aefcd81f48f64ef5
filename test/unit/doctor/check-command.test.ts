/**
 * `claude-a2a --check` as a user runs it: a bound port, a missing --cwd and missing credentials
 * name what is wrong, and what to do.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../src/app/main.js";

let dir: string;
let taken: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-check-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve()));
  taken = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function check(argv: string[]) {
  const out: string[] = [];
  const code = await main(["--check", ...argv], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
  });
  return { code, out: out.join("") };
}

describe("claude-a2a --check", () => {
  it("reports a port already in use, before the real start would fail on it", async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken?.listen(0, "127.0.0.1", resolve));
    const address = taken.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    const r = await check(["--cwd", dir, "--port", String(address.port)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FAIL  port: 127.0.0.1:${address.port} is already in use\n`);
    expect(r.out).toContain(
      `      fix: stop the program listening on port ${address.port} (another claude-a2a?), or choose another port with --port or server.port\n`,
    );
  });

  it("--cwd /nope: the fix names the directory, not keys it never listed", async () => {
    const r = await check(["--cwd", join(dir, "nope")]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      `FAIL  config: Invalid option --cwd: no such directory: ${join(dir, "nope")}\n` +
        `      fix: give --cwd an existing directory (${join(dir, "nope")} does not exist)\n` +
        "1 problem(s) found.\n",
    );
  });

  // On macOS a `claude` login is in the keychain: the check passes there without looking.
  it.skipIf(process.platform === "darwin")(
    "no credentials: the fix line offers --scripted and the demo (skipped on macOS: keychain login)",
    async () => {
      for (const v of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"]) {
        vi.stubEnv(v, "");
      }
      vi.stubEnv("CLAUDE_CODE_USE_BEDROCK", "");
      vi.stubEnv("CLAUDE_CODE_USE_VERTEX", "");
      vi.stubEnv("CLAUDE_CONFIG_DIR", join(dir, "no-login"));
      vi.stubEnv("HOME", join(dir, "home"));
      const free = createServer();
      await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
      const address = free.address();
      await new Promise<void>((resolve) => free.close(() => resolve()));
      if (address === null || typeof address === "string") throw new Error("no port");
      const r = await check(["--cwd", dir, "--port", String(address.port)]);
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        "FAIL  credentials: no API key, token or claude login found\n" +
          "      fix: run `claude` once and log in, or set ANTHROPIC_API_KEY; to serve this directory offline on a scripted model: claude-a2a --scripted <rules.json> (docs/demo.md; an example: docs/examples/scripted-rules.json); to try the demo: npm run demo, or claude-a2a demo when installed\n",
      );
    },
  );
});
