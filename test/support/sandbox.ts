import { mkdtemp, mkdir, rm, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp tree that isolates one real Claude Code runtime from the machine and the network. */
export interface RuntimeSandbox {
  readonly root: string;
  /** The agent's working directory. */
  readonly cwd: string;
  readonly home: string;
  /** CLAUDE_CONFIG_DIR: transcripts land in `<configDir>/projects/<cwd-slug>/<session_id>.jsonl`. */
  readonly configDir: string;
  /** CLAUDE_CODE_TMPDIR: background task output and sockets. */
  readonly tmpDir: string;
  /** The COMPLETE child environment: the SDK's `env` option replaces, it does not merge. */
  readonly env: Record<string, string>;
  /** Removes the whole tree. Safe to call twice. */
  cleanup(): Promise<void>;
}

export interface SandboxOptions {
  /** Base URL of the scripted model, e.g. `FakeModel.url`. */
  readonly modelUrl: string;
  readonly apiKey?: string;
  /** Added last, so a test can override any switch. */
  readonly extraEnv?: Record<string, string>;
}

/** The environment that points a Claude Code child at the scripted model and nothing else. */
export function runtimeEnv(
  dirs: { home: string; configDir: string; tmpDir: string },
  opts: SandboxOptions,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    ANTHROPIC_BASE_URL: opts.modelUrl,
    ANTHROPIC_API_KEY: opts.apiKey ?? "sk-ant-fake-key-for-tests",
    CLAUDE_CONFIG_DIR: dirs.configDir,
    CLAUDE_CODE_TMPDIR: dirs.tmpDir,
    TMPDIR: dirs.tmpDir,
    // Without this the runtime also calls the real API host (bootstrap, telemetry, /api/hello).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: "1",
    // Every tool gets its full schema, so scripts may call Monitor or TaskStop directly.
    ENABLE_TOOL_SEARCH: "false",
    // Tests run as root in CI; bypassPermissions refuses to start as root outside a sandbox.
    IS_SANDBOX: "1",
    ...opts.extraEnv,
  };
}

export async function createRuntimeSandbox(opts: SandboxOptions): Promise<RuntimeSandbox> {
  // realpath: on some systems the temp dir is a symlink, and the runtime slugs the real cwd.
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-test-")));
  const dirs = {
    cwd: join(root, "work"),
    home: join(root, "home"),
    configDir: join(root, "config"),
    tmpDir: join(root, "tmp"),
  };
  await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
  let removed = false;
  return {
    root,
    ...dirs,
    env: runtimeEnv(dirs, opts),
    async cleanup() {
      if (removed) return;
      removed = true;
      // The runtime may still be flushing a transcript as it exits: retry instead of failing.
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
