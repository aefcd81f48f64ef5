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
  /**
   * Everything printed so far as the terminal shows it: a line redrawn in place (the prompt as
   * it is typed) shows its last state. `raw` rendered by `screenOf`.
   */
  screen(): string;
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

/**
 * What a terminal shows of `raw`, line by line: printable text written at the cursor; `\r` and
 * `ESC[<n>G` move it within the line, `ESC[<n>A` up (a prompt that redraws itself), `\n` to the
 * start of the next line; `ESC[2K` clears the line, `ESC[K` its rest; every other escape is
 * dropped. Enough for what our client, its prompt library and npm print. Pure.
 */
export function screenOf(raw: string): string {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  const tokens =
    // eslint-disable-next-line no-control-regex
    /\x1b\[([0-9;?]*)([ -/]*[@-~])|\x1b\][^\x07]*\x07|\x1b[()][0-9A-B]|\x1b[=>78]|[\r\n]|[^\x1b\r\n]/g;
  for (const [token, params, final] of raw.matchAll(tokens)) {
    const line = (rows[row] ??= []);
    if (token === "\n") {
      row += 1;
      col = 0;
    } else if (token === "\r") col = 0;
    else if (final === "G") col = Math.max(0, Number(params || "1") - 1);
    else if (final === "A") row = Math.max(0, row - Number(params || "1"));
    else if (final === "K" && params === "2") rows[row] = [];
    else if (final === "K" && (params === "" || params === "0")) rows[row] = line.slice(0, col);
    else if (!token.startsWith("\x1b")) {
      while (line.length < col) line.push(" ");
      line[col++] = token;
    }
  }
  return Array.from(rows, (line = []) => line.join("").trimEnd()).join("\n");
}

/** `script`: a compiled `cli.js` to run instead of the sources (under tsx, from `cwd`). */
export function runInTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  script?: string,
): Terminal {
  const program = script === undefined ? ["--import", "tsx", "src/cli.ts"] : [script];
  return commandInTerminal(process.execPath, [...program, ...args], env, cwd);
}

/** Any command in a pseudo-terminal (`npm run demo`, as a person types it). */
export function commandInTerminal(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Terminal {
  const pty: IPty = spawn(file, args, {
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
    screen: () => screenOf(raw),
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
