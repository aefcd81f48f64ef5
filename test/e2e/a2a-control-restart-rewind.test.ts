/**
 * A restart right after a rewind or a fork, while the conversation's Claude Code process is
 * still up (docs/control.md "After a restart"): the next message resumes the rewound branch, and
 * the fork's own conversation, whether the server stopped cleanly (SIGTERM: it closes its
 * processes), was killed (SIGKILL: the new server stops what it left running), or was killed
 * with its processes (nothing closed them); and a restart after a rewind has put the files back
 * but before its prompt reached Claude resumes where the files are. Real server processes, the REAL runtime, the
 * scripted model, the official client with the control extension's header.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import {
  killSandboxProcesses,
  messageText,
  reply,
  runtimeProcesses,
  sendForTask,
  sendRequest,
  serverProcess,
  text,
  toolUse,
  userMessage,
  watch,
  expectKnew,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";

const control = (
  metadata: Record<string, unknown>,
  prompt: string,
  contextId: string,
): Message => ({
  ...userMessage(prompt, { contextId }),
  metadata,
});

async function done(client: Client, message: Message): Promise<Task> {
  const task = await sendForTask(client, message);
  expect(task.status?.state, messageText(task.status?.message)).toBe(
    TaskState.TASK_STATE_COMPLETED,
  );
  return task;
}

/** A Bash command that runs until a file appears that nobody creates: it holds its process. */
const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done";

const kindOf = (e: StreamResponse): unknown =>
  e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message?.metadata?.kind : undefined;

function initRepository(cwd: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd });
  git("init", "-q", "-b", "main");
  git("commit", "-q", "--allow-empty", "-m", "the base");
}

type Stop = "SIGTERM" | "SIGKILL" | "SIGKILL, its processes too";

/** The server's log line when it wrote the record of a rewound branch its process never wrote. */
const RECORDED = "the runtime had not recorded the rewound branch's end";

describe("a restart right after a rewind or a fork (real runtime, real server processes)", () => {
  it.each<Stop>(["SIGTERM", "SIGKILL", "SIGKILL, its processes too"])(
    "%s: the next message resumes the rewound branch, and the fork's conversation",
    async (stop) => {
      const p = await serverProcess({
        rules: [{ name: "any", match: {}, reply: reply(text("Noted.")) }],
      });
      const client = await p.connect({ fetchImpl: withControl });
      // A rewind: alpha, beta, then back to before beta with gamma.
      await done(client, userMessage("Remember alpha.", { contextId: "rk" }));
      const beta = await done(client, userMessage("Remember beta.", { contextId: "rk" }));
      const rewound = await done(client, control({ rewindTo: beta.id }, "Remember gamma.", "rk"));
      // A fork: kiwi in its source, lemon in the fork.
      const kiwi = await done(client, userMessage("Remember kiwi.", { contextId: "src" }));
      const forked = await done(client, control({ forkOf: kiwi.id }, "Remember lemon.", "fk"));
      // Both conversations' processes are still up: nothing has closed them.
      const live = new Set(
        (await runtimeProcesses(p.bench.sandbox.configDir)).map((r) => r.sessionId),
      );
      for (const task of [rewound, forked]) {
        const sessionId = (task.metadata?.control as { sessionId?: string } | undefined)?.sessionId;
        expect(live.has(sessionId ?? "")).toBe(true);
      }

      const first = p.server;
      if (stop === "SIGKILL, its processes too") {
        // All at once, as a power cut: the server is frozen first, so its processes never see
        // their input close (as they exit they would write the runtime's record of the branch).
        first.kill("SIGSTOP");
        await killSandboxProcesses(p.bench.sandbox.configDir);
      }
      first.kill(stop === "SIGTERM" ? "SIGTERM" : "SIGKILL");
      await first.exited;
      await p.spawn();
      const again = await p.connect({ fetchImpl: withControl });

      await done(again, userMessage("Which words do you know?", { contextId: "rk" }));
      expectKnew(
        p,
        "Which words do you know?",
        ["Remember alpha.", "Remember gamma."],
        ["Remember beta."],
      );
      await done(again, userMessage("And in the fork?", { contextId: "fk" }));
      expectKnew(p, "And in the fork?", ["Remember kiwi.", "Remember lemon."]);
      expect(p.bench.model.unmatched).toEqual([]);
      // Killed with its processes, the rewound branch had no record of the runtime's: the
      // server wrote it (without, the runtime resumed the branch rewound away); else it had one.
      expect(p.server.stdout().includes(RECORDED)).toBe(stop === "SIGKILL, its processes too");
    },
    240_000,
  );

  it("SIGKILL after a rewind reset the worktree, before its prompt reached Claude: the next message resumes before the rewound task, as the files are", async () => {
    const p = await serverProcess({
      rules: [
        {
          name: "slow build",
          match: { lastUserText: /Build the release/, toolResult: false },
          reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
        },
        { name: "any", match: {}, reply: reply(text("Noted.")) },
      ],
      // One process for the machine: the rewinding task waits for it after its rewind is done.
      config: {
        claude: { isolation: "worktree", allowedTools: ["Bash"] },
        sessions: { maxLive: 1 },
      },
      deferStart: true,
    });
    initRepository(p.bench.sandbox.cwd);
    await p.spawn();
    const client = await p.connect({ fetchImpl: withControl });
    await done(client, userMessage("Remember alpha.", { contextId: "rk" }));
    const beta = await done(client, userMessage("Remember beta.", { contextId: "rk" }));
    // Another conversation takes the one process and keeps it (its command waits forever).
    const busy = watch(
      client.sendMessageStream(sendRequest(userMessage("Build the release", { contextId: "b" }))),
    );
    await busy.first((e) => kindOf(e) === "tool_use");
    const rewinding = watch(
      client.sendMessageStream(
        sendRequest(control({ rewindTo: beta.id }, "Remember gamma.", "rk")),
      ),
    );
    await rewinding.first((e) => kindOf(e) === "rewound");

    p.server.kill("SIGKILL");
    await p.server.exited;
    await killSandboxProcesses(p.bench.sandbox.configDir);
    await Promise.all([busy.done.catch(() => undefined), rewinding.done.catch(() => undefined)]);
    expect(p.bench.model.requests.some((r) => r.request.lastUserText.includes("gamma"))).toBe(
      false,
    );
    await p.spawn();
    const again = await p.connect({ fetchImpl: withControl });

    await done(again, userMessage("Which words do you know?", { contextId: "rk" }));
    expectKnew(p, "Which words do you know?", ["Remember alpha."], ["Remember beta."]);
    expect(p.bench.model.unmatched).toEqual([]);
  }, 240_000);
});
