/**
 * `claude.sandbox` (docs/sandbox.md) against the REAL Claude Code runtime, the scripted model
 * issuing Bash tool calls, and the real bubblewrap of this machine, through the official A2A
 * client: writes inside the tree run with no prompt, writes outside leave no file, the network is
 * cut off but for the allowed domains, secrets and the server's own files cannot be read, each
 * worktree is its conversation's only write root, and the operator's policy holds at startup and
 * per task.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { TaskState, type Part, type StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  collect,
  dataPart,
  freePort,
  idsOf,
  lastStatus,
  listRequest,
  startListener,
  reply,
  sendRequest,
  streamMessage,
  temp,
  tokenEntries,
  toolUse,
  userMessage,
  type A2AHarness,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { resolveConfig } from "../../src/config/load.js";
import type { ConfigInput } from "../../src/config/schema.js";
import { startServer } from "../../src/app/server.js";
import { StartupError } from "../../src/common/startup-error.js";
import { main } from "../../src/app/main.js";

/** "RUN: <command>": the model runs the command with Bash, then says it did. */
const bashRules: Rule[] = [
  afterTool(true, "Ran it.", "ran"),
  {
    name: "run",
    match: { lastUserText: /RUN: / },
    reply: (req: ParsedRequest) =>
      reply(
        toolUse("Bash", {
          command: /RUN: ([\s\S]*)$/.exec(req.lastUserText)?.[1]?.trim() ?? "false",
          description: "Run the command",
        }),
      ),
  },
];

/** The text the runtime gave the model for the Bash call of the turn that ran `marker`. */
function bashOutput(harness: A2AHarness, marker: string): string {
  const requests = harness.bench.model.requests.map((r) => r.request);
  const at = requests.findIndex((r) => r.lastUserText.includes(marker));
  return (
    requests.slice(at + 1).find((r) => r.toolResults.length > 0)?.toolResults[0]?.content ?? ""
  );
}

/** The worktree a `pwd` printed (its own line). */
const treeOf = (output: string): string =>
  [...output.matchAll(/^(\/\S*\.claude\/worktrees\/[^\s:/]+)$/gm)].at(-1)?.[1] ?? "";

interface Run {
  readonly events: StreamResponse[];
  /** Whether the task was ever in input-required (and was denied). */
  readonly prompted: boolean;
}

/** Sends `prompt` and runs the task to its end, denying every permission request it parks on. */
async function run(harness: A2AHarness, prompt: string, ids = {}): Promise<Run> {
  let events = await streamMessage(harness.client, `RUN: ${prompt}`, ids);
  const all = [...events];
  let prompted = false;
  for (let i = 0; i < 5 && lastStatus(events).state === TaskState.TASK_STATE_INPUT_REQUIRED; i++) {
    prompted = true;
    const deny: Part[] = [dataPart({ kind: "permission_response", decision: "deny" })];
    events = await streamMessage(harness.client, deny, idsOf(all));
    all.push(...events);
  }
  return { events: all, prompted };
}

const inputRequired = (events: readonly StreamResponse[]) =>
  events.some(
    (e) =>
      e.payload?.$case === "statusUpdate" &&
      e.payload.value.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED,
  );

/** The tool_use statuses of a stream: their text and metadata. */
const toolStatuses = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => {
    const message =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    if (message?.metadata?.kind !== "tool_use") return [];
    const first = message.parts[0]?.content;
    return [{ text: first?.$case === "text" ? first.value : "", metadata: message.metadata }];
  });

// The runtime sends loopback hosts around its proxy (its no_proxy lists them), straight into
// the sandbox's empty network namespace; through the proxy (`--noproxy ''`) the allowlist decides.
const curl = (port: number) => `curl --noproxy '' -sS -m 10 http://127.0.0.1:${port}/`;

describe("claude.sandbox (real runtime, real bubblewrap)", () => {
  it('"strict": a write inside the workspace completes with no input-required at all', async () => {
    const h = await a2a({ config: { claude: { sandbox: "strict" } }, rules: bashRules });
    const { events, prompted } = await run(h, "echo inside > inside.txt && echo wrote");
    expect(prompted).toBe(false);
    expect(inputRequired(events)).toBe(false);
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await readFile(join(h.bench.sandbox.cwd, "inside.txt"), "utf8")).toBe("inside\n");
    expect(h.permissionRequests).toEqual([]);
  });

  it('"strict": a write outside the workspace leaves no file (a prompt, if any, denied)', async () => {
    const h = await a2a({ config: { claude: { sandbox: "strict" } }, rules: bashRules });
    const outside = join(h.bench.sandbox.root, "outside.txt");
    const { events } = await run(h, `echo outside > ${outside}; echo rc=$?`);
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(existsSync(outside)).toBe(false);
  });

  it('"strict": a connection to a loopback listener arrives nowhere, and the stream, the metric and the log say it was refused', async () => {
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, { write: (l: string) => void lines.push(l) });
    const h = await a2a({
      config: { claude: { sandbox: "strict" } },
      rules: bashRules,
      logger,
    });
    const target = await startListener();
    const { events } = await run(
      h,
      `${curl(target.port)}; curl -sS -m 10 http://127.0.0.1:${target.port}/`,
    );
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(target.hits()).toBe(0);
    expect(bashOutput(h, "RUN:")).not.toContain("hello from the listener");

    const refused = toolStatuses(events).filter((s) => s.metadata.sandbox === "refused");
    expect(refused).toHaveLength(1);
    expect(refused[0]?.text).toBe(
      `Refused by the sandbox: Bash (deny network-outbound 127.0.0.1:${target.port} (host is not on the allow list))`,
    );
    expect(refused[0]?.metadata).toMatchObject({
      toolName: "Bash",
      operations: ["network-outbound"],
    });

    const metrics = await (await fetch(`${h.server.url}/metrics`)).text();
    expect(metrics).toContain('claude_a2a_sandbox_denials_total{kind="command"} 1');
    const warned = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const denial = warned.filter((l) => l.msg === "sandbox refused a command");
    expect(denial).toHaveLength(1);
    expect(denial[0]).toMatchObject({ operations: ["network-outbound"] });
    expect(JSON.stringify(denial[0])).not.toContain("curl");
  });

  it("with the host in allowedDomains, the same request arrives", async () => {
    const h = await a2a({
      config: {
        claude: { sandbox: { preset: "strict", network: { allowedDomains: ["127.0.0.1"] } } },
      },
      rules: bashRules,
    });
    const target = await startListener();
    const { events } = await run(h, curl(target.port));
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(target.hits()).toBe(1);
    expect(bashOutput(h, "RUN:")).toContain("hello from the listener");
  });

  it('"strict": a file under HOME/.ssh and the server\'s database cannot be read', async () => {
    const h = await a2a({
      config: { claude: { sandbox: "strict" }, store: { type: "sqlite" } },
      rules: bashRules,
    });
    const ssh = join(h.bench.sandbox.home, ".ssh");
    await mkdir(ssh, { recursive: true });
    await writeFile(join(ssh, "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
    const { events } = await run(
      h,
      "cat ~/.ssh/id_ed25519; head -c 16 .claude/claude-a2a.db; echo; echo end",
    );
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const output = bashOutput(h, "RUN:");
    expect(output).toContain("end");
    expect(output).not.toContain("PRIVATE-KEY-MATERIAL");
    expect(output).not.toContain("SQLite format");
  });

  it("with \"worktree\" isolation the write root is the conversation's worktree: another conversation's is refused", async () => {
    const h = await a2a({
      config: { claude: { sandbox: "strict", isolation: "worktree" } },
      rules: bashRules,
      beforeStart: async (cwd) => {
        const git = (...args: string[]) =>
          execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd });
        git("init", "-q");
        await writeFile(join(cwd, "README"), "base\n");
        git("add", "-A");
        git("commit", "-qm", "base");
      },
    });
    const first = await run(h, "echo first > mine.txt && pwd");
    expect(lastStatus(first.events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const firstTree = treeOf(bashOutput(h, "RUN: echo first"));
    expect(firstTree).toContain(".claude/worktrees/");
    expect(await readFile(join(firstTree, "mine.txt"), "utf8")).toBe("first\n");

    const second = await run(
      h,
      `echo second > mine.txt; echo intruder > ${firstTree}/intruder.txt; pwd`,
    );
    expect(lastStatus(second.events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const secondTree = treeOf(bashOutput(h, "RUN: echo second"));
    expect(secondTree).not.toBe(firstTree);
    expect(await readFile(join(secondTree, "mine.txt"), "utf8")).toBe("second\n");
    expect(existsSync(join(firstTree, "intruder.txt"))).toBe(false);
    // The workspace's own checkout is no write root either.
    expect(existsSync(join(h.bench.sandbox.cwd, "mine.txt"))).toBe(false);
  });

  it("a per-task metadata.sandbox that would widen the sandbox is refused before any task exists", async () => {
    const h = await a2a({ config: { claude: { sandbox: "strict" } }, rules: bashRules });
    const message = {
      ...userMessage("RUN: echo hi"),
      metadata: { sandbox: { network: { allowedDomains: ["evil.example"] } } },
    };
    await expect(h.client.sendMessage(sendRequest(message))).rejects.toThrow(
      "metadata.sandbox: network.allowedDomains would widen the sandbox or cannot be set per task",
    );
    const listed = await h.client.listTasks(listRequest(message.contextId));
    expect(listed.tasks).toEqual([]);
    expect(h.spawns()).toBe(0);
  });

  it("a per-task narrowing holds for its task only: the next task has the workspace's sandbox again", async () => {
    const h = await a2a({
      config: {
        claude: {
          sandbox: { preset: "strict", network: { allowedDomains: ["127.0.0.1"] } },
        },
      },
      rules: bashRules,
    });
    const target = await startListener();
    const narrowed = {
      ...userMessage(`RUN: ${curl(target.port)}`),
      metadata: { sandbox: { network: { deniedDomains: ["127.0.0.1"] } } },
    };
    const first = await collect(h.client.sendMessageStream(sendRequest(narrowed)));
    expect(lastStatus(first).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(target.hits()).toBe(0);
    const { events } = await run(h, curl(target.port), { contextId: idsOf(first).contextId });
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(target.hits()).toBe(1);
    expect(h.spawns()).toBe(1);
  });
});

describe("the operator's sandbox policy", () => {
  const tempDir = async () => (await temp("claude-a2a-sandbox-")).path;

  it("server.sandbox.required with bubblewrap unavailable stops startup with the documented message", async () => {
    const cwd = await tempDir();
    const input: ConfigInput = {
      server: { sandbox: { required: true } },
      claude: { sandbox: { preset: "strict", bwrapPath: "/nonexistent/bwrap" } },
      store: { type: "memory" },
    };
    const config = resolveConfig(input, {
      file: "<test>",
      startDir: cwd,
      overrides: { port: await freePort(), cwd },
    });
    const started = startServer({ config, logger: pino({ level: "silent" }) });
    await expect(started).rejects.toBeInstanceOf(StartupError);
    await expect(started).rejects.toThrow(
      `The workspace ${cwd}: server.sandbox.required is set but its sandbox cannot run here: ` +
        "bubblewrap is not installed (/nonexistent/bwrap); install it: apt-get install bubblewrap " +
        "socat (Debian, Ubuntu), dnf install bubblewrap socat (Fedora), or set " +
        "claude.sandbox.bwrapPath / socatPath.",
    );
  });

  it("a server others may call (a bearer token) with its sandbox off logs the exposure warning at startup", async () => {
    const cwd = await tempDir();
    const config = resolveConfig(
      {
        server: { auth: { tokens: tokenEntries({ ci: "a-token" }) } },
        sessions: { spares: 0 },
        store: { type: "memory" },
      },
      { file: "<test>", startDir: cwd, overrides: { port: await freePort(), cwd } },
    );
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
    const server = await startServer({ config, logger });
    await server.close();
    const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg:
          `The workspace ${cwd}: callers other than the local user may reach this server and its ` +
          "sandbox is off: their commands run with this user's rights; set claude.sandbox to " +
          '"strict" (and server.sandbox.required) (docs/sandbox.md).',
      }),
    );
  });

  it("--check shows the sandbox line of each workspace: on or off, the mechanism, the allowed domains", async () => {
    const root = await tempDir();
    await Promise.all(["api", "web"].map((w) => mkdir(join(root, w))));
    await mkdir(join(root, ".claude"));
    const config: ConfigInput = {
      workspaces: {
        api: {
          cwd: join(root, "api"),
          claude: {
            sandbox: { preset: "strict", network: { allowedDomains: ["registry.npmjs.org"] } },
          },
        },
        web: { cwd: join(root, "web") },
      },
    };
    await writeFile(join(root, ".claude", "claude-a2a.config.json"), JSON.stringify(config));
    let out = "";
    await main(["--check", "--cwd", root], { out: (t) => (out += t), err: () => undefined });
    const lines = out.split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ok {4}sandbox api: on \(strict\); mechanism: bubblewrap \/\S+\/bwrap, socat \/\S+\/socat; allowed domains: registry\.npmjs\.org; readable in HOME: \/\S+\/\.gitconfig, \/\S+\/\.config\/git$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ok {4}sandbox web: off; mechanism: bubblewrap \S+, socat \S+; allowed domains: none$/,
      ),
    );
  });
});
