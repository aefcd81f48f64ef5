/**
 * Quiet logs (docs/observability.md): what an open console and a health probe repeat —
 * `/healthz`, the console's static files, the agent card, its ListTasks poll — leaves no INFO
 * line, while a request that does something still does; a 401 logs its reason without the token.
 * A server process on the scripted model, with a token, driven with the requests the console
 * makes (a bounded number of them: no timing).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, type ServerProcess } from "../support/server-process.js";
import { freePort } from "../support/harness/ports.js";
import { tempDir, type TempDir } from "../support/harness/temp.js";

const RULES = fileURLToPath(new URL("../../docs/examples/scripted-rules.json", import.meta.url));
const TOKEN = "quiet-logs-secret-token-0123456789";

interface LogLine {
  level: number;
  msg: string;
  path?: string;
  rpc?: string;
  status?: number;
  refused?: string;
}
const INFO = 30;

describe("quiet logs", () => {
  let dir: TempDir;
  let server: ServerProcess;
  const lines = () =>
    server
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);
  const rpc = (method: string, params: object, token = TOKEN) =>
    fetch(`${server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });

  beforeAll(async () => {
    dir = await tempDir("claude-a2a-quiet-logs-");
    const project = join(dir.path, "project");
    await mkdir(join(project, ".claude"), { recursive: true });
    await writeFile(
      join(project, ".claude", "claude-a2a.config.json"),
      JSON.stringify({ server: { auth: { tokens: [{ name: "ci", env: "QUIET_TOKEN" }] } } }),
    );
    server = await spawnServer({
      cwd: project,
      port: await freePort(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir.path,
        LOG_FORMAT: "json",
        QUIET_TOKEN: TOKEN,
      },
      built: true,
      args: ["--scripted", RULES],
    });
  }, 60_000);

  afterAll(async () => {
    server.kill("SIGTERM");
    await server.exited;
    await dir.close();
  }, 30_000);

  it("logs no INFO line for the console's polls, /healthz, the card or static files", async () => {
    // Five rounds of what an open console does, with a health probe beside it.
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${server.url}/healthz`)).ok).toBe(true);
      expect((await fetch(`${server.url}/console/`)).ok).toBe(true);
      expect((await fetch(`${server.url}/console/app.js`)).ok).toBe(true);
      expect((await fetch(`${server.url}/.well-known/agent-card.json`)).ok).toBe(true);
      expect((await rpc("ListTasks", {})).ok).toBe(true);
    }
    // A request that does something, logged last: once its line is there, every earlier one is.
    await rpc("GetTask", { id: "no-such-task" });
    await expect
      .poll(() => lines().some((l) => l.msg === "request" && l.rpc === "GetTask"), {
        timeout: 10_000,
      })
      .toBe(true);
    const info = lines().filter((l) => l.msg === "request" && l.level === INFO);
    expect(info.map((l) => l.rpc ?? l.path)).toEqual(["GetTask"]);
  }, 60_000);

  it("logs a 401's reason, never the token", async () => {
    const wrong = `${TOKEN}-wrong`;
    expect((await rpc("ListTasks", {}, wrong)).status).toBe(401);
    await expect.poll(() => lines().some((l) => l.status === 401), { timeout: 10_000 }).toBe(true);
    const refused = lines().find((l) => l.status === 401);
    expect(refused?.level).toBe(INFO);
    expect(refused?.refused).toMatch(/^invalid_token: /);
    expect(server.output()).not.toContain(TOKEN);
  }, 30_000);
});
