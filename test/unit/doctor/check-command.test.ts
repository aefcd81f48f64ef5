/** `claude-a2a --check` as a user runs it: a bound port and a missing --cwd name what is wrong. */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../src/app/main.js";

let dir: string;
let taken: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-check-"));
});
afterEach(async () => {
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
});
