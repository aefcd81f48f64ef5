/**
 * One client voice (issue 49): the terminal client against our server, the real Claude Code
 * runtime and the scripted model. A refusal is said with the server's reason on every binding; a
 * task canceled at a prompt costs in `chat` what GetTask says; `localhost` and `127.0.0.1` are
 * one server to the remembered conversation, and one the server does not know is not sent.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { usageOf } from "../../src/contract/usage.js";
import { costText } from "../../src/client/usage-view.js";
import {
  a2a,
  asks,
  freePort,
  KEY,
  listRequest,
  says,
  terminal,
  tokenEntries,
} from "../support/harness/index.js";

const run = promisify(execFile);
const TIMEOUT = 120_000;
const TOKEN = "ci-token-0123456789";

describe("a refusal, on every binding", () => {
  it(
    "a wrong or missing token on send, tasks and task prints the server's reason over JSON-RPC, REST and gRPC",
    async () => {
      const h = await a2a({
        rules: [says("Hello", "Hi.")],
        config: {
          server: {
            grpc: { port: await freePort() },
            auth: { tokens: tokenEntries({ ci: TOKEN }) },
          },
        },
      });
      const cli = await terminal(h.server.url);
      for (const transport of ["jsonrpc", "rest", "grpc"]) {
        for (const [token, reason] of [
          [["--token", "wrong-token-000000"], "The bearer token is not valid."],
          [[], "This agent requires Authorization: Bearer <token>."],
        ] as const) {
          for (const command of [["send", "Hello"], ["tasks"], ["task", "t-1"]]) {
            const r = await cli.run([...command, "--transport", transport, ...token]);
            expect([transport, command[0], r.code, r.err]).toEqual([
              transport,
              command[0],
              1,
              `claude-a2a: ${reason} (the agent requires a bearer token, and none or a wrong one was sent: pass --token or set A2A_TOKEN.)\n`,
            ]);
          }
        }
        // The right token still goes through on that binding.
        const ok = await cli.run([
          "send",
          "--new",
          "--transport",
          transport,
          "--token",
          TOKEN,
          "Hello",
        ]);
        expect([transport, ok.code, ok.err]).toEqual([transport, 0, ""]);
      }
    },
    TIMEOUT,
  );
});

describe("chat: a task canceled at a prompt", () => {
  it(
    "prints the cost GetTask gives the task, not $0",
    async () => {
      const h = await a2a({ rules: asks("Paint the fence", { then: "Painted." }) });
      const cli = await terminal(h.server.url);
      const t = cli.chat();
      let at = await t.waitFor("Ctrl-C during a turn cancels it");
      t.write("Paint the fence\r");
      at = await t.waitFor("Which colour do you prefer?", { from: at });
      t.write(KEY.ctrlC); // at the question: cancels the task
      at = await t.waitFor("canceling the task", { from: at });
      await t.waitFor(/\[canceled\][^\n]*\n/, { from: at });
      const shown = /\[canceled\] ([^\n]*)\n/.exec(t.text())?.[1];
      const [task] = (await h.client.listTasks(listRequest(""))).tasks;
      // The figures `claude-a2a task <id>` shows: GetTask's, once the run's result is stored.
      let usage: ReturnType<typeof usageOf>;
      await expect
        .poll(
          async () => {
            const stored = await h.client.getTask({
              tenant: "",
              id: task?.id ?? "",
              historyLength: 0,
            });
            usage = usageOf(stored.metadata);
            return usage?.runs ?? 0;
          },
          { timeout: 20_000 },
        )
        .toBeGreaterThan(0);
      expect(usage!.costUsd).toBeGreaterThan(0);
      expect(shown).toBe(costText(usage!));
      t.write(KEY.ctrlC);
      expect(await t.exited).toBe(0);
    },
    TIMEOUT,
  );
});

describe("the remembered conversation", () => {
  it(
    "localhost and 127.0.0.1 are one server; a context the server does not know starts a new one, saying so",
    async () => {
      const h = await a2a({ rules: [says("First", "One."), says("Second", "Two.")] });
      const cli = await terminal(h.server.url);
      const port = new URL(h.server.url).port;
      const first = await cli.run(["send", "--url", `http://127.0.0.1:${port}`, "First"]);
      expect([first.code, first.err]).toEqual([0, ""]);
      const second = await cli.run(["send", "--url", `http://localhost:${port}/`, "Second"]);
      expect([second.code, second.err]).toEqual([0, ""]);
      const { tasks } = await h.client.listTasks(listRequest(""));
      expect(tasks).toHaveLength(2);
      expect(new Set(tasks.map((t) => t.contextId)).size).toBe(1);
      const remembered = JSON.parse(
        await readFile(join(cli.configHome, "claude-a2a", "contexts.json"), "utf8"),
      ) as { contexts: Record<string, string> };
      expect(remembered.contexts).toEqual({ [`http://localhost:${port}`]: tasks[0]?.contextId });

      // A new server on the same URL (here: the memory says a context this one never had).
      await writeFile(
        join(cli.configHome, "claude-a2a", "contexts.json"),
        JSON.stringify({ contexts: { [`http://localhost:${port}`]: "ctx-of-an-older-server" } }),
      );
      const third = await cli.run(["send", "--url", `http://localhost:${port}`, "First"]);
      expect(third.err).toBe(
        "the server does not know the remembered conversation ctx-of-an-older-server: starting a new one\n",
      );
      expect(third.code).toBe(0);
      const after = await h.client.listTasks(listRequest(""));
      expect(after.tasks.map((t) => t.contextId)).not.toContain("ctx-of-an-older-server");
    },
    TIMEOUT,
  );
});

describe("a mistyped command", () => {
  it("sned suggests send, and nothing starts", async () => {
    const r = await run(process.execPath, [
      join(process.cwd(), "dist", "cli.js"),
      "sned",
      "hi",
    ]).then(
      () => ({ code: 0, err: "" }),
      (e: { code: number; stderr: string }) => ({ code: e.code, err: e.stderr }),
    );
    expect(r).toEqual({
      code: 2,
      err: 'claude-a2a: unknown command "sned". Did you mean send?\n(claude-a2a --help lists the commands)\n',
    });
  });
});
