/** Runs the real `claude-a2a` command line in a pseudo-terminal, as a person would type into it. */
import { spawn, type IPty } from "@lydell/node-pty";

export const KEY = {
  down: "\x1b[B",
  up: "\x1b[A",
  enter: "\r",
  ctrlC: "\x03",
  space: " ",
} as const;

export interface Terminal {
  /** Everything printed so far, ANSI escapes removed. */
  text(): string;
  /** Everything printed so far, as printed. */
  raw(): string;
  write(data: string): void;
  /** Waits until the output (after `from`, an index into text()) matches; returns the match end. */
  waitFor(
    pattern: string | RegExp,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<number>;
  readonly exited: Promise<number>;
  readonly pid: number;
  kill(): void;
}

// CSI, OSC and single-character escapes: enough to read what inquirer and our client print.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-B]|\x1b[=>78]/g;

/** `script`: a compiled `cli.js` to run instead of the sources (under tsx, from `cwd`). */
export function runInTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  script?: string,
): Terminal {
  const program = script === undefined ? ["--import", "tsx", "src/cli.ts"] : [script];
  const pty: IPty = spawn(process.execPath, [...program, ...args], {
    name: "xterm-256color",
    cols: 120,
    rows: 40,
    cwd,
    env: env,
  });
  let raw = "";
  const waiters = new Set<() => void>();
  pty.onData((d) => {
    raw += d;
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  const text = () => raw.replace(ANSI, "").replace(/\r/g, "");
  return {
    text,
    raw: () => raw,
    pid: pty.pid,
    exited,
    write: (data) => pty.write(data),
    kill: () => {
      try {
        pty.kill("SIGKILL");
      } catch {
        // already gone
      }
    },
    waitFor(pattern, { from = 0, timeoutMs = 45_000 } = {}) {
      const find = (): number | undefined => {
        const tail = text().slice(from);
        if (typeof pattern === "string") {
          const at = tail.indexOf(pattern);
          return at < 0 ? undefined : from + at + pattern.length;
        }
        const m = pattern.exec(tail);
        return m ? from + m.index + m[0].length : undefined;
      };
      return new Promise<number>((resolve, reject) => {
        const check = () => {
          const at = find();
          if (at === undefined) return;
          cleanup();
          resolve(at);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out waiting for ${String(pattern)}; the terminal shows:\n${text().slice(from)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
