/** The client against a plain A2A agent that is not ours (the SDK's server pieces, in-process). */
import { currentInvocation } from "../../../src/common/invocation.js";
import { memoryKey } from "../../../src/client/context-memory.js";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEchoAgent, type EchoAgent } from "../../support/client/echo-agent.js";
import { runCli } from "../../support/client/run.js";

let agent: EchoAgent;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  agent = await startEchoAgent();
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-client-"));
  env = { XDG_CONFIG_HOME: dir, A2A_URL: agent.url };
});
afterEach(async () => {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

describe("claude-a2a send against a plain A2A agent", () => {
  it("streams the artifact text, prints the final state and exits 0", async () => {
    const r = await runCli(["send", "hello", "there"], { env });
    expect(r).toEqual({ code: 0, out: "echo: hello there\n[completed]\n", err: "" });
  });

  it("prints a message answer (no task) and exits 0", async () => {
    const r = await runCli(["send", "msg hi"], { env });
    expect(r).toEqual({ code: 0, out: "echo: hi\n", err: "" });
  });

  it("exits 1 on FAILED with the reason on stderr", async () => {
    const r = await runCli(["send", "fail"], { env });
    expect(r.code).toBe(1);
    expect(r.out).toBe("[failed]\n");
    expect(r.err).toMatch(/^claude-a2a: task \S+ failed: echo agent failed on purpose\n$/);
  });

  it("input-required exits 3 with how to answer; --task answers it in its context", async () => {
    const asked = await runCli(["send", "--new", "ask me"], { env });
    expect(asked.code).toBe(3);
    const id = /task (\S+)\n/.exec(asked.out)?.[1] ?? "";
    expect(asked.out).toContain("? What is your name?\n");
    expect(asked.out).toContain(
      `answer with: ${currentInvocation()} send --task ${id} "<your answer>"`,
    );
    // A different remembered context must not leak into the answer.
    await runCli(["send", "--new", "something else"], { env });
    const answered = await runCli(["send", "--task", id, "Ada"], { env });
    expect(answered).toEqual({ code: 0, out: "hello Ada\n[completed]\n", err: "" });
  });

  it("remembers the context per URL (XDG_CONFIG_HOME) so send continues it, unless --new", async () => {
    await runCli(["send", "one"], { env });
    const first = agent.received[0]?.contextId;
    await runCli(["send", "two"], { env });
    expect(agent.received[1]?.contextId).toBe(first);
    const stored = JSON.parse(await readFile(join(dir, "claude-a2a", "contexts.json"), "utf8")) as {
      contexts: Record<string, string>;
    };
    // Kept under the agent's origin, its loopback name normalised (127.0.0.1 is localhost).
    expect(stored.contexts[memoryKey(agent.url)]).toBe(first);
    await runCli(["send", "--new", "three"], { env });
    expect(agent.received[2]?.contextId).not.toBe(first);
    await runCli(["send", "--context", first ?? "", "four"], { env });
    expect(agent.received[3]?.contextId).toBe(first);
  });

  it("--json prints every stream event as one JSON line", async () => {
    const r = await runCli(["send", "--json", "hi"], { env });
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => Object.keys(e)[0])).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: "TASK_STATE_COMPLETED" } },
    });
  });

  it("reads the message from standard input with -, and attaches files as raw parts", async () => {
    const file = join(dir, "notes.md");
    await writeFile(file, "# notes\n");
    const r = await runCli(["send", "--file", file, "-"], { env, stdin: "from stdin\n" });
    expect(r.out).toBe("echo: from stdin\n[completed]\n");
    const parts = agent.received[0]?.parts ?? [];
    expect(parts[0]?.content).toEqual({ $case: "text", value: "from stdin\n" });
    expect(parts[1]).toMatchObject({ filename: "notes.md", mediaType: "text/markdown" });
    expect(parts[1]?.content?.$case).toBe("raw");
    if (parts[1]?.content?.$case === "raw")
      expect(Buffer.from(parts[1].content.value).toString()).toBe("# notes\n");
  });

  it("sends --token as a bearer token (card and calls)", async () => {
    await agent.close();
    agent = await startEchoAgent({ token: "s3cret" });
    env = { ...env, A2A_URL: agent.url };
    const refused = await runCli(["send", "hi"], { env });
    expect(refused.code).toBe(1);
    const r = await runCli(["send", "--token", "s3cret", "hi"], { env });
    expect(r.code).toBe(0);
    expect(agent.authorizations.at(-1)).toBe("Bearer s3cret");
  });

  it("says clearly when nothing listens at the URL", async () => {
    await agent.close();
    const r = await runCli(["send", "hi"], { env });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cannot reach the agent at ${agent.url}`);
  });

  it("refuses an empty message with exit 2", async () => {
    const r = await runCli(["send"], { env });
    expect(r.code).toBe(2);
    expect(r.err).toContain("nothing to send");
  });
});

describe("claude-a2a tasks, task, cancel against a plain A2A agent", () => {
  it("lists tasks in a table, shows one with its history and artifacts, filters by state", async () => {
    await runCli(["send", "first"], { env });
    await runCli(["send", "--new", "ask me"], { env });
    const list = await runCli(["tasks"], { env });
    expect(list.code).toBe(0);
    const [header, ...rows] = list.out.trimEnd().split("\n");
    expect(header).toMatch(/^ID\s+STATE\s+UPDATED\s+CONTEXT\s+ORIGIN\s+COST\s+TEXT$/);
    expect(rows).toHaveLength(2);
    const parked = await runCli(["tasks", "--state", "input-required"], { env });
    expect(parked.out.trimEnd().split("\n")).toHaveLength(2);
    expect(parked.out).toContain("ask me");
    const id = (rows.find((r) => r.includes("completed")) ?? "").split(/\s+/)[0] ?? "";
    const shown = await runCli(["task", id], { env });
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`Task     ${id}`);
    expect(shown.out).toContain("State    completed");
    expect(shown.out).toContain("user  first");
    expect(shown.out).toContain("echo: first");
  });

  it("cancels a parked task; an unknown task is an error", async () => {
    const asked = await runCli(["send", "ask me"], { env });
    const id = /task (\S+)\n/.exec(asked.out)?.[1] ?? "";
    const r = await runCli(["cancel", id], { env });
    expect(r).toEqual({ code: 0, out: `task ${id}: canceled\n`, err: "" });
    const missing = await runCli(["task", "no-such-task"], { env });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^claude-a2a: .*not found/i);
  });

  it("rejects an unknown --state with exit 2", async () => {
    const r = await runCli(["tasks", "--state", "sleepy"], { env });
    expect(r.code).toBe(2);
  });
});

describe("claude-a2a over the gRPC binding", () => {
  const restart = async (grpc: "also" | "only") => {
    await agent.close();
    agent = await startEchoAgent({ grpc });
    env = { ...env, A2A_URL: agent.url };
  };

  it("--transport grpc talks gRPC (the card also lists JSON-RPC, first); --token goes as metadata", async () => {
    await restart("also");
    const r = await runCli(["send", "--transport", "grpc", "--token", "s3cret", "hi"], { env });
    expect(r).toEqual({ code: 0, out: "echo: hi\n[completed]\n", err: "" });
    // The card came over HTTP, the call over gRPC, with the token in its metadata.
    expect(agent.authorizations).toEqual(["Bearer s3cret", "Bearer s3cret"]);
    const listed = await runCli(["tasks", "--transport", "grpc"], { env });
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/completed .* hi\n$/);
    expect(agent.authorizations).toHaveLength(4); // its card, then ListTasks over gRPC
  });

  it("takes gRPC from a card that lists only gRPC (as a grpc:// URL)", async () => {
    await restart("only");
    const r = await runCli(["send", "hi"], { env });
    expect(r).toEqual({ code: 0, out: "echo: hi\n[completed]\n", err: "" });
  });

  it("says when the card lists no interface for --transport", async () => {
    const r = await runCli(["send", "--transport", "grpc", "hi"], { env });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "claude-a2a: the agent's card lists no interface this client may use (GRPC): with --transport, try another one or leave it out.\n",
    );
    const bad = await runCli(["send", "--transport", "carrier-pigeon", "hi"], { env });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Allowed choices are jsonrpc, rest, grpc");
  });

  it("says what is wrong with an unreadable --grpc-ca, or a TLS client to a plaintext server", async () => {
    await restart("only");
    const missing = await runCli(["send", "--grpc-ca", "/nonexistent/ca.pem", "hi"], { env });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /^claude-a2a: cannot read --grpc-ca \/nonexistent\/ca\.pem: ENOENT/,
    );
    const tls = await runCli(["send", "--grpc-tls", "hi"], { env });
    expect(tls.code).toBe(1);
    expect(tls.err).toMatch(/^claude-a2a: cannot reach the agent's gRPC binding .*--grpc-tls/);
  });
});

describe("claude-a2a client help", () => {
  it.each(["send", "chat", "tasks", "task", "cancel"])(
    "%s --help shows usage and examples",
    async (cmd) => {
      const r = await runCli([cmd, "--help"], { env });
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: claude-a2a ${cmd}`);
      expect(r.out).toContain("Examples:");
      expect(r.out).toContain("--url");
    },
  );

  it("an unknown option is a usage error", async () => {
    const r = await runCli(["send", "--bogus", "x"], { env });
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown option '--bogus'");
  });
});
