/**
 * The client's command line: `claude-a2a send|chat|tasks|task|cancel|triggers`, parsed by
 * commander.
 */
import { Command, CommanderError, Option } from "commander";
import { packageVersion } from "../common/version.js";
import type { ChatOptions } from "./commands/chat.js";
import type { SendOptions } from "./commands/send.js";
import type { TasksOptions } from "./commands/tasks.js";
import type { TriggersOptions } from "./commands/triggers.js";
import { TRANSPORTS } from "./connect.js";
import { DEFAULT_URL } from "./defaults.js";
import type { ClientEnv, CommonOptions } from "./env.js";
import { EXIT } from "./render-end.js";

const collectFiles = (value: string, previous: string[] = []) => [...previous, value];

function common(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        "-u, --url <url>",
        `the agent's base URL (default: $A2A_URL, else ${DEFAULT_URL})`,
      ),
    )
    .addOption(
      new Option(
        "-w, --workspace <name>",
        "a workspace of a server with several: its agent at <url>/agents/<name>/",
      ),
    )
    .addOption(
      new Option("--token <token>", "bearer token sent as Authorization (default: $A2A_TOKEN)"),
    )
    .addOption(
      new Option(
        "--transport <binding>",
        "use only this binding (default: the first the agent card lists)",
      ).choices(Object.keys(TRANSPORTS)),
    )
    .addOption(new Option("--grpc-tls", "connect to the gRPC binding over TLS (system CAs)"))
    .addOption(
      new Option(
        "--grpc-ca <file>",
        "connect to the gRPC binding over TLS, trusting this CA certificate (PEM)",
      ),
    );
}

const ENV_HELP = `
Environment:
  A2A_URL          the agent's URL when --url is not given
  A2A_TOKEN        bearer token when --token is not given
  XDG_CONFIG_HOME  where the last context per URL is kept (claude-a2a/contexts.json)
  NO_COLOR         no colours (they are only used on a terminal anyway)`;

/** Builds the program; each action stores its exit code in `result.code`. */
export function buildProgram(e: ClientEnv, result: { code: number }): Command {
  const program = new Command("claude-a2a")
    .description("A terminal client for A2A v1.0 agents (claude-a2a's server, or any other).")
    .version(packageVersion(), "-v, --version")
    .configureOutput({ writeOut: (t) => e.out(t), writeErr: (t) => e.err(t) })
    .exitOverride()
    .showHelpAfterError("(add --help for usage and examples)");

  common(
    program
      .command("send")
      .description(
        "send one message and stream the answer (continues the last conversation with this URL)",
      )
      .argument("[message...]", "the message text; - reads it from standard input")
      .option("-c, --context <id>", "the context (conversation) to send in")
      .option("-t, --task <id>", "answer this task (one waiting for input)")
      .option("-n, --new", "start a new conversation instead of continuing the last one")
      .option("-f, --file <path>", "attach a file (repeatable)", collectFiles)
      .option(
        "-d, --data <json>",
        'attach a JSON data part, e.g. \'{"kind":"permission_response","decision":"allow"}\'',
      )
      .option("--json", "print each stream event as one JSON line")
      .option("--no-cost", "do not print what the task cost after its final state")
      .option(
        "--deliver <target>",
        "a new task's delivery: its checks run until green (docs/delivery.md); target: branch, " +
          "push, pull-request or merge (asks for approval first)",
      ),
  )
    .addHelpText(
      "after",
      `
Exit status: 0 completed, 1 failed/canceled/rejected or an error (reason on stderr), 2 usage,
3 the task waits for input (answer with --task).

Examples:
  claude-a2a send "List the files in this directory"
  claude-a2a send --new --file notes.md "Summarize this"
  git diff | claude-a2a send -
  claude-a2a send --task 7f3c… yes
  claude-a2a send --task 7f3c… --data '{"answers":{"Which colour do you prefer?":"blue"}}'
  claude-a2a send --json "hello" | jq -c .
  claude-a2a send --deliver branch "Fix the failing test"   # checks until green
  claude-a2a send --deliver pull-request "Fix the failing test"   # then pushed, a PR opened
  claude-a2a send --deliver merge "Fix the failing test"    # then asks, and merges on a yes
  claude-a2a send --transport grpc "hello"       # over the agent's gRPC binding
${ENV_HELP}`,
    )
    .action(async (words: string[], o: SendOptions) => {
      const { sendCommand } = await import("./commands/send.js");
      result.code = await sendCommand(words, o, e);
    });

  common(
    program
      .command("chat")
      .description(
        "an interactive conversation: questions and permission prompts answered with the arrow keys",
      )
      .option("-c, --context <id>", "join this context instead of starting a new one")
      .option("--continue", "continue the last conversation with this URL")
      .option("--no-cost", "do not print what each task cost after its final state"),
  )
    .addHelpText(
      "after",
      `
Ctrl-C during a turn cancels the task (CancelTask); a second Ctrl-C quits. At the prompt, Ctrl-C
or /exit quits and /new starts a new conversation. Tasks the agent starts by itself in the
conversation (background work) are shown as they arrive.

Examples:
  claude-a2a chat
  claude-a2a chat --url http://127.0.0.1:3018 --continue
${ENV_HELP}`,
    )
    .action(async (o: ChatOptions) => {
      const { chatCommand } = await import("./commands/chat.js");
      result.code = await chatCommand(o, e);
    });

  common(
    program
      .command("tasks")
      .description("list tasks (ListTasks), newest first")
      .option("-c, --context <id>", "only this context's tasks")
      .option(
        "-s, --state <state>",
        "only tasks in this state (working, input-required, completed, failed, canceled…)",
      )
      .option("-l, --limit <n>", "at most this many (1-100, default 50)")
      .option("--json", "one JSON task per line"),
  )
    .addHelpText(
      "after",
      `
Examples:
  claude-a2a tasks
  claude-a2a tasks --state input-required
  claude-a2a tasks --context 5d1e… --json
${ENV_HELP}`,
    )
    .action(async (o: TasksOptions) => {
      const { tasksCommand } = await import("./commands/tasks.js");
      result.code = await tasksCommand(o, e);
    });

  common(
    program
      .command("task")
      .description("show one task: state, history and artifacts (GetTask)")
      .argument("<id>", "the task id")
      .option("--json", "the task as JSON"),
  )
    .addHelpText(
      "after",
      `\nExamples:\n  claude-a2a task 7f3c…\n  claude-a2a task 7f3c… --json | jq .status\n${ENV_HELP}`,
    )
    .action(async (id: string, o: CommonOptions & { json?: boolean }) => {
      const { taskCommand } = await import("./commands/tasks.js");
      result.code = await taskCommand(id, o, e);
    });

  common(
    program
      .command("cancel")
      .description("cancel a task (CancelTask)")
      .argument("<id>", "the task id"),
  )
    .addHelpText("after", `\nExamples:\n  claude-a2a cancel 7f3c…\n${ENV_HELP}`)
    .action(async (id: string, o: CommonOptions) => {
      const { cancelCommand } = await import("./commands/tasks.js");
      result.code = await cancelCommand(id, o, e);
    });

  const triggers = common(
    program
      .command("triggers")
      .description("list the agent's triggers with their last and next firing (operators only)")
      .option("--json", "the listing as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  claude-a2a triggers --token "$OPS_TOKEN"
  claude-a2a triggers fire nightly
${ENV_HELP}`,
    )
    .action(async (o: TriggersOptions) => {
      const { triggersCommand } = await import("./commands/triggers.js");
      result.code = await triggersCommand(o, e);
    });
  common(
    triggers
      .command("fire")
      .description("run one firing of a trigger now; prints its task (operators only)")
      .argument("<name>", "the trigger's name")
      .option("--json", "the answer as JSON"),
  ).action(async (name: string, o: TriggersOptions) => {
    const { fireCommand } = await import("./commands/triggers.js");
    result.code = await fireCommand(name, o, e);
  });

  return program;
}

/** Runs a client command line (argv without node and script); resolves with the exit code. */
export async function runClient(argv: readonly string[], e: ClientEnv): Promise<number> {
  const result = { code: EXIT.ok as number };
  const program = buildProgram(e, result);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    throw err;
  }
  return result.code;
}
