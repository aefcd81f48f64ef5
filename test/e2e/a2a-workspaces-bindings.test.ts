/**
 * Workspaces through the other doors: the real command line (`--workspace`), the gRPC binding
 * (the first workspace only) and A2A v0.3 (`server.compat.v03`) under a workspace's prefix.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { connect } from "../../src/client/connect.js";
import { workspaceForbidden } from "../../src/http/workspace-routes.js";
import {
  freePort,
  says,
  sendForTask,
  serverProcess,
  tokenEntries,
  userMessage,
  workspaces,
} from "../support/harness/index.js";
import { ALL_TASKS, listed } from "../support/a2a/isolation.js";
import { exists } from "../support/a2a/workspaces.js";
import { sdkGrpcClient } from "../support/grpc.js";

const TIMEOUT = 180_000;
const CI = "ci-token-0123456789";
const OPS = "ops-token-9876543210";

describe("workspaces over the command line, gRPC and v0.3", () => {
  it(
    "claude-a2a --workspace api=… --workspace web=… serves both; a missing directory stops startup naming it",
    async () => {
      const p = await serverProcess({
        rules: [says("Hello api", "Hello from the api.")],
        deferStart: true,
      });
      const { root } = p.bench.sandbox;
      const dirs = { api: join(root, "api"), web: join(root, "web") };
      await Promise.all(Object.values(dirs).map((d) => mkdir(d)));
      const flags = ["--workspace", `api=${dirs.api}`, "--workspace", `web=${dirs.web}`];
      const cli = await p.spawn({ args: flags });
      const listing = (await (await fetch(`${cli.url}/agents`)).json()) as {
        workspaces: { name: string; url: string }[];
      };
      expect(listing.workspaces.map((w) => w.name)).toEqual(["api", "web"]);
      const api = await new ClientFactory().createFromUrl(`${cli.url}/agents/api/`);
      const task = await sendForTask(api, userMessage("Hello api"));
      expect(task.status?.state, cli.output()).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await exists(join(dirs.api, ".claude", "claude-a2a.db"))).toBe(true);

      const gone = join(root, "gone");
      const failed = await p
        .spawn({
          port: await freePort(),
          args: ["--workspace", `api=${dirs.api}`, "--workspace", `gone=${gone}`],
        })
        .then(
          () => "started",
          (err: unknown) => String(err),
        );
      expect(failed).toContain(`claude-a2a: Workspace "gone": no such directory: ${gone}\n`);
    },
    TIMEOUT,
  );

  it(
    "gRPC serves the first workspace, only its card lists it, and its callers apply there too",
    async () => {
      const port = await freePort();
      const tokens = tokenEntries({ ci: CI, ops: OPS });
      const { server } = await workspaces({
        rules: [says("Hello api", "Hello from the api.")],
        config: { server: { grpc: { port }, auth: { tokens } } },
        api: { callers: { tokens: ["ci"] } },
      });
      const bindings = async (name: string) =>
        (
          (await (
            await fetch(`${server.url}/agents/${name}/.well-known/agent-card.json`)
          ).json()) as {
            supportedInterfaces: { protocolBinding: string }[];
          }
        ).supportedInterfaces.map((i) => i.protocolBinding);
      expect(await bindings("api")).toEqual(["JSONRPC", "HTTP+JSON", "GRPC"]);
      expect(await bindings("web")).toEqual(["JSONRPC", "HTTP+JSON"]);
      const grpc = await sdkGrpcClient(`${server.url}/agents/api/`, { token: CI });
      const task = await sendForTask(grpc, userMessage("Hello api"));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // The same task over HTTP on api; unknown on web.
      expect(await listed(await connect(`${server.url}/agents/api/`, CI))).toEqual([task.id]);
      expect(await listed(await connect(`${server.url}/agents/web/`, CI))).toEqual([]);
      // A token the server lets in but api does not list: refused on gRPC as on HTTP.
      const ops = await sdkGrpcClient(`${server.url}/agents/api/`, { token: OPS });
      await expect(ops.listTasks(ALL_TASKS)).rejects.toThrow(workspaceForbidden("api"));
    },
    TIMEOUT,
  );

  it(
    "with server.compat.v03, each workspace serves v0.3 too, its v0.3 card under its prefix",
    async () => {
      const { server } = await workspaces({ config: { server: { compat: { v03: true } } } });
      const base = `http://localhost:${server.port}`;
      // No A2A-Version header: the v0.3 card, its url under the workspace's prefix.
      const legacy = (await (
        await fetch(`${server.url}/agents/web/.well-known/agent-card.json`)
      ).json()) as { url: string; name: string };
      expect(legacy).toMatchObject({
        name: "Claude Code (web)",
        url: `${base}/agents/web/a2a/jsonrpc`,
      });
      // A v0.3 call (no header) reaches the workspace's handler through the compatibility layer.
      const answer = await fetch(`${server.url}/agents/web/a2a/jsonrpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tasks/get",
          params: { id: "nope" },
        }),
      });
      expect(((await answer.json()) as { error?: { code: number } }).error?.code).toBe(-32001);
    },
    TIMEOUT,
  );
});
