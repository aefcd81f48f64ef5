/**
 * `claude-a2a demo` (`npm run demo` in a clone): the scripted model with the demo rules, and the
 * server on it, in a fresh temporary git workspace (or `--dir`), printing how to talk to it. No
 * account and no network: the Claude Code runtime is real, only the model is scripted. The
 * recorded sessions of docs/demo.md reproduce with it (test/e2e/demo-sessions.test.ts).
 */
import { parseArgs } from "node:util";
import { createLogger, logFormat, logLevel } from "../common/logging.js";
import { resolveConfig } from "../config/load.js";
import { ConfigError } from "../config/errors.js";
import { StartupError, startServer, type RunningServer } from "../app/server.js";
import { currentInvocation, type Invocation } from "../common/invocation.js";
import { FakeModel } from "./fake-model/server.js";
import { DEMO_PROMPTS, DEMO_RULES } from "./rules.js";
import { openDemoWorkspace, type DemoWorkspace } from "./workspace.js";
import { demoEnv } from "./env.js";
import { resolveUrl } from "../client/defaults.js";
import { CHAT_HERE_LINE, chatOnTerminal, chatsHere } from "./chat.js";

export const DEMO_USAGE = `Usage: claude-a2a demo [options]   (npm run demo [-- options] in a clone)

Starts a scripted model (no account, no network) and the server on it, in a fresh temporary
git workspace, and prints how to talk to it. On a terminal it then opens a chat with it right
there (/exit or Ctrl-C at the prompt stops the demo). Ctrl-C stops both and removes the workspace.

Options:
  -p, --port <port>   the server's port (default 3008)
      --dir <dir>     serve this directory instead of a temporary one (kept as it is)
      --no-chat       only serve, even on a terminal (talk to it from another shell)
  -h, --help          show this help and exit
`;

/** The model the runtime is told to use: the scripted model answers any, the price is this one's. */
export const DEMO_MODEL = "claude-sonnet-4-5";

export interface DemoIo {
  out(text: string): void;
  err(text: string): void;
}

export interface DemoDeps {
  /** Resolves when the demo should stop (default: SIGINT or SIGTERM; SIGTERM only while chatting). */
  readonly stopSignal?: (chatting: boolean) => Promise<void>;
  /** The chat on this terminal (default: the terminal client's, when stdin and stdout are TTYs). */
  readonly chat?: ((url: string) => Promise<number>) | false;
  readonly invocation?: Invocation;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * ` --url <url>`, or nothing when the terminal client finds the demo by itself: the URL it
 * would use (`A2A_URL` in `env`, else its default, `localhost:3008`) is the same loopback port.
 * So on the default port the banner's `send` line is the README's recorded command, word for word.
 */
export function urlFlag(url: string, env: NodeJS.ProcessEnv): string {
  const served = new URL(url);
  const client = new URL(resolveUrl(undefined, env));
  const same =
    served.protocol === client.protocol &&
    served.port === client.port &&
    (served.hostname === client.hostname ||
      (LOOPBACK_HOSTS.has(served.hostname) && LOOPBACK_HOSTS.has(client.hostname)));
  return same ? "" : ` --url ${url}`;
}

/** What the demo prints once both are up: how to talk to it. Pure. */
export function demoBanner(o: {
  url: string;
  cwd: string;
  modelUrl: string;
  worktrees: boolean;
  bin: Invocation;
  temporary: boolean;
  /** The demo opens a chat in this terminal after the banner. */
  chatHere?: boolean;
  /** The environment the client commands will run in (`A2A_URL`): decides `--url`. */
  env: NodeJS.ProcessEnv;
}): string {
  const { url, bin } = o;
  const flag = urlFlag(url, o.env);
  return [
    `claude-a2a demo: serving ${o.cwd} at ${url} on a scripted model (${o.modelUrl}): no account, no network.`,
    `${o.worktrees ? "Each conversation works in a git worktree of its own; " : ""}Ctrl-C stops it${o.temporary ? " and removes the workspace" : ""}.`,
    ``,
    `  chat:    ${bin} chat${flag}`,
    `  send:    ${bin} send${flag} "${DEMO_PROMPTS.question}"`,
    `  console: ${url}/console/`,
    ``,
    `Try "${DEMO_PROMPTS.question}" (a question), "${DEMO_PROMPTS.permission}" (a permission),`,
    `"${DEMO_PROMPTS.diff}" (a file change${o.worktrees ? " and its diff" : ""}). The recorded sessions: docs/demo.md.`,
    ...(o.chatHere ? [``, CHAT_HERE_LINE] : []),
    ``,
  ].join("\n");
}

/**
 * SIGINT or SIGTERM; while the demo chats, SIGTERM only: Ctrl-C then belongs to the chat (it
 * cancels a running turn, and leaves at the prompt), and a no-op SIGINT listener keeps a Ctrl-C
 * between the chat's own listeners from killing the process. The listeners stay (`on`, not
 * `once`): the chat's prompt library re-raises a signal it sees no other listener for, which
 * would kill the process before its workspace is removed.
 */
const untilSignal = (chatting: boolean) =>
  new Promise<void>((resolve) => {
    process.on("SIGINT", chatting ? () => undefined : resolve);
    process.on("SIGTERM", resolve);
  });

function parse(argv: readonly string[]): {
  port: string;
  dir?: string;
  help?: boolean;
  "no-chat"?: boolean;
} {
  return parseArgs({
    args: [...argv],
    options: {
      port: { type: "string", short: "p", default: "3008" },
      dir: { type: "string" },
      "no-chat": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}

/** Runs the demo until a stop signal; resolves with the exit code. */
export async function runDemo(
  argv: readonly string[],
  io: DemoIo,
  deps: DemoDeps = {},
): Promise<number> {
  let flags: ReturnType<typeof parse>;
  try {
    flags = parse(argv);
  } catch (err) {
    io.err(`claude-a2a demo: ${(err as Error).message}\n\n${DEMO_USAGE}`);
    return 2;
  }
  if (flags.help) {
    io.out(DEMO_USAGE);
    return 0;
  }
  let workspace: DemoWorkspace;
  try {
    workspace = await openDemoWorkspace(flags.dir);
  } catch (err) {
    io.err(`claude-a2a demo: ${(err as Error).message}\n`);
    return 1;
  }
  // keep 0: nothing reads the record, and a long demo would otherwise keep every request.
  const model = await FakeModel.start({ rules: DEMO_RULES, keep: 0 });
  let server: RunningServer | undefined;
  try {
    const config = resolveConfig(
      {
        claude: {
          model: DEMO_MODEL,
          // The user's own Claude Code settings (hooks, permissions) would change the sessions.
          settingSources: [],
          permissionMode: "acceptEdits",
          isolation: workspace.worktrees ? "worktree" : "shared",
        },
        store: { type: "memory" },
      },
      { file: "(demo)", startDir: workspace.cwd, overrides: { port: flags.port } },
    );
    const logger = createLogger({
      // Only what goes wrong: the banner is what a demo's user reads.
      level: logLevel(process.env, "warn") ?? "warn",
      format: logFormat(process.env, process.stderr.isTTY === true),
      destination: process.stderr,
    });
    server = await startServer({
      config,
      logger,
      claudeEnv: demoEnv(process.env, { modelUrl: model.url, ...workspace }),
      stateDir: workspace.stateDir,
    });
    const chat =
      deps.chat ??
      (chatsHere({
        noChat: flags["no-chat"] === true,
        stdinIsTTY: process.stdin.isTTY === true,
        stdoutIsTTY: process.stdout.isTTY === true,
      })
        ? chatOnTerminal
        : false);
    io.out(
      demoBanner({
        url: server.url,
        cwd: workspace.cwd,
        modelUrl: model.url,
        worktrees: workspace.worktrees,
        bin: deps.invocation ?? currentInvocation(),
        temporary: flags.dir === undefined,
        chatHere: chat !== false,
        env: process.env,
      }),
    );
    const stopped = (deps.stopSignal ?? untilSignal)(chat !== false).then(() => 0);
    return chat === false ? await stopped : await Promise.race([chat(server.url), stopped]);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) {
      io.err(`claude-a2a demo: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await server?.close();
    await model.close();
    await workspace.remove();
  }
}
