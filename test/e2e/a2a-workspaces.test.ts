/**
 * Several workspaces in one server (`workspaces`): each is its own A2A agent under
 * `/agents/<name>/`, reached by URL alone with the official client, working in its own directory,
 * with its own tasks (SQLite in each directory, or a PostgreSQL database each on one server),
 * its own conversations across a restart, and its own callers. The CLI, gRPC and v0.3 with
 * workspaces: a2a-workspaces-bindings.test.ts.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import pg from "pg";
import { TaskState, type Task } from "@a2a-js/sdk";
import { connect } from "../../src/client/connect.js";
import { workspaceForbidden } from "../../src/http/workspace-routes.js";
import {
  postgres,
  says,
  sendForTask,
  tokenEntries,
  userMessage,
  workspaces,
} from "../support/harness/index.js";
import { ALL_TASKS, expectUnknown, listed } from "../support/a2a/isolation.js";
import { exists, writeNote } from "../support/a2a/workspaces.js";

const TIMEOUT = 180_000;

describe("several workspaces in one server", () => {
  it(
    "each has its card at its prefix, works in its own directory, knows only its own tasks, and resumes its conversations after a restart",
    async () => {
      // One process for the whole server: each workspace's turn closes the other's idle one.
      const two = await workspaces({ config: { sessions: { maxLive: 1 } } });
      const { bench, dirs } = two;
      bench.model.setRules([
        ...writeNote("Write the api note", dirs.api, "api\n"),
        ...writeNote("Write the web note", dirs.web, "web\n"),
        says("Go on, api", "Still the api."),
        says("Go on, web", "Still the web."),
      ]);
      const base = `http://localhost:${two.server.port}`;

      // Each card at its prefix, with its own name and its interfaces under that prefix.
      for (const [name, title] of [
        ["api", "API agent"],
        ["web", "Claude Code (web)"],
      ] as const) {
        const res = await fetch(`${two.server.url}/agents/${name}/.well-known/agent-card.json`);
        expect(res.status).toBe(200);
        const card = (await res.json()) as {
          name: string;
          supportedInterfaces: { url: string; protocolBinding: string }[];
        };
        expect(card.name).toBe(title);
        expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
          ["JSONRPC", `${base}/agents/${name}/a2a/jsonrpc`],
          ["HTTP+JSON", `${base}/agents/${name}/a2a/rest`],
        ]);
      }
      // Nothing is served at the root but the list.
      expect((await fetch(`${two.server.url}/.well-known/agent-card.json`)).status).toBe(404);
      expect(await (await fetch(`${two.server.url}/agents`)).json()).toEqual({
        workspaces: ["api", "web"].map((name) => ({
          name,
          url: `${base}/agents/${name}/`,
          agentCard: `${base}/agents/${name}/.well-known/agent-card.json`,
        })),
      });

      // The official client, by the prefix alone.
      let api = await two.client("api");
      let web = await two.client("web");
      const apiTask = await sendForTask(api, userMessage("Write the api note"));
      expect(apiTask.status?.state, bench.stderr.join("")).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await readFile(join(dirs.api, "note.txt"), "utf8")).toBe("api\n");
      expect(await exists(join(dirs.web, "note.txt"))).toBe(false);
      const webTask = await sendForTask(web, userMessage("Write the web note"));
      expect(webTask.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await readFile(join(dirs.web, "note.txt"), "utf8")).toBe("web\n");
      expect(await readFile(join(dirs.api, "note.txt"), "utf8")).toBe("api\n");
      // Each workspace keeps its own store and session map in its own directory.
      for (const dir of [dirs.api, dirs.web]) {
        expect(await exists(join(dir, ".claude", "claude-a2a.db"))).toBe(true);
      }
      expect(await exists(join(bench.sandbox.cwd, ".claude", "claude-a2a.db"))).toBe(false);
      // sessions.maxLive is the server's: web's session took the one slot from api's idle one.
      expect(two.server.workspaces.map((w) => [w.name, w.pool.liveCount])).toEqual([
        ["api", 0],
        ["web", 1],
      ]);

      // A task of one workspace is unknown on the other, on every method; lists are per workspace.
      await expectUnknown(api, webTask.id);
      await expectUnknown(web, apiTask.id);
      expect(await listed(api)).toEqual([apiTask.id]);
      expect(await listed(web)).toEqual([webTask.id]);

      // Health and metrics: the whole server, and each workspace by name.
      const health = (await (await fetch(`${two.server.url}/healthz`)).json()) as {
        status: string;
        workspaces: Record<string, { status: string }>;
      };
      expect(health.status).toBe("ok");
      expect(Object.keys(health.workspaces)).toEqual(["api", "web"]);
      const metrics = await (await fetch(`${two.server.url}/metrics`)).text();
      expect(metrics.match(/^# TYPE claude_a2a_runs_total counter$/gm)).toHaveLength(1);
      for (const name of ["api", "web"]) {
        expect(metrics).toMatch(
          new RegExp(`^claude_a2a_runs_total\\{[^}]*workspace="${name}"[^}]*\\} 1$`, "m"),
        );
      }

      // After a restart each workspace continues its own conversation (its session resumed).
      await two.restart();
      api = await two.client("api");
      web = await two.client("web");
      const next: Record<string, Task> = {
        api: await sendForTask(api, userMessage("Go on, api", { contextId: apiTask.contextId })),
        web: await sendForTask(web, userMessage("Go on, web", { contextId: webTask.contextId })),
      };
      for (const [name, task] of Object.entries(next)) {
        expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        const request = bench.model.messageRequests.find((r) =>
          r.lastUserText.includes(`Go on, ${name}`),
        );
        const seen = JSON.stringify(request?.body.messages);
        const other = name === "api" ? "web" : "api";
        expect(seen).toContain(`Write the ${name} note`);
        expect(seen).not.toContain(`Write the ${other} note`);
      }
      expect(await listed(api)).toEqual([apiTask.id, next.api?.id].sort());
      expect(bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "a token allowed on one workspace only gets 403 on the other, and GET /agents lists what it may call",
    async () => {
      const CI = "ci-token-0123456789";
      const OPS = "ops-token-9876543210";
      const tokens = tokenEntries({ ci: CI, ops: OPS });
      const { server } = await workspaces({
        rules: [says("Hello web", "Hello from the web.")],
        config: { server: { auth: { tokens } } },
        api: { callers: { tokens: ["ci"] } },
      });
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      const getTasks = (name: string, token: string) =>
        fetch(`${server.url}/agents/${name}/a2a/jsonrpc`, {
          method: "POST",
          headers: { "content-type": "application/json", "a2a-version": "1.0", ...bearer(token) },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }),
        });

      const refused = await getTasks("api", OPS);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: "forbidden",
        message: workspaceForbidden("api"),
      });
      const restRefused = await fetch(`${server.url}/agents/api/a2a/rest/tasks`, {
        headers: { "a2a-version": "1.0", ...bearer(OPS) },
      });
      expect(restRefused.status).toBe(403);
      expect((await getTasks("api", CI)).status).toBe(200);
      expect((await getTasks("web", OPS)).status).toBe(200);
      // No token at all: the server's gate answers first (401), as everywhere.
      expect((await fetch(`${server.url}/agents/web/a2a/rest/tasks`)).status).toBe(401);
      // The card stays public.
      expect((await fetch(`${server.url}/agents/api/.well-known/agent-card.json`)).status).toBe(
        200,
      );

      // The official client: ops works on web and is refused on api.
      const opsWeb = await connect(`${server.url}/agents/web`, OPS);
      const hello = await sendForTask(opsWeb, userMessage("Hello web"));
      expect(hello.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const opsApi = await connect(`${server.url}/agents/api/`, OPS);
      await expect(opsApi.listTasks(ALL_TASKS)).rejects.toThrow(/403/);

      const agents = async (token: string) =>
        (
          (await (await fetch(`${server.url}/agents`, { headers: bearer(token) })).json()) as {
            workspaces: { name: string }[];
          }
        ).workspaces.map((w) => w.name);
      expect(await agents(CI)).toEqual(["api", "web"]);
      expect(await agents(OPS)).toEqual(["web"]);
      expect((await fetch(`${server.url}/agents`)).status).toBe(401);
    },
    TIMEOUT,
  );

  it(
    "on one PostgreSQL database, each workspace has its own tasks and lists",
    async () => {
      const pgServer = await postgres();
      const url = await pgServer.createDatabase();
      const database = new URL(url).pathname.slice(1);
      // The workspaces' databases beside the test's: dropped with it.
      const names = [`${database}_api`, `${database}_web`];
      for (const name of names) pgServer.adopt(name);
      const two = await workspaces({
        rules: [says("Hello api", "Hello from the api."), says("Hello web", "Hello from the web.")],
        config: { store: { type: "postgres", url } },
      });
      const api = await two.client("api");
      const web = await two.client("web");
      const apiTask = await sendForTask(api, userMessage("Hello api"));
      const webTask = await sendForTask(web, userMessage("Hello web"));
      expect([apiTask.status?.state, webTask.status?.state]).toEqual([
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_COMPLETED,
      ]);
      await expectUnknown(api, webTask.id);
      await expectUnknown(web, apiTask.id);
      expect(await listed(api)).toEqual([apiTask.id]);
      expect(await listed(web)).toEqual([webTask.id]);
      // Each in a database of its own beside the configured one, which holds no task.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const found = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like $1 order by datname",
        [`${database}%`],
      );
      const tables = await client.query("select 1 from pg_tables where tablename = 'tasks'");
      await client.end();
      expect(found.rows.map((r) => r.datname)).toEqual([database, ...names]);
      expect(tables.rowCount).toBe(0);
    },
    TIMEOUT,
  );
});
