/**
 * The terminal client (`claude-a2a send|tasks|chat`) against a server: one-shot commands in this
 * process, `chat` in a pseudo-terminal; its config (XDG_CONFIG_HOME) in a temp dir of its own.
 */
import { runCli, type RunResult } from "../client/run.js";
import { runInTerminal, type Terminal } from "../client/pty.js";
import { tempDir } from "./temp.js";

export { KEY, type Terminal } from "../client/pty.js";
export { runCli, type RunResult } from "../client/run.js";

export interface TerminalClient {
  /** XDG_CONFIG_HOME of every command run here. */
  readonly configHome: string;
  /** The environment of a one-shot command (A2A_URL set to the server's). */
  readonly env: NodeJS.ProcessEnv;
  /** `claude-a2a <argv>` in this process. */
  run(argv: string[], options?: { stdin?: string; tty?: boolean }): Promise<RunResult>;
  /** `claude-a2a chat --url <server> …` in a pseudo-terminal, colours off (killed by `close`). */
  chat(extra?: string[]): Terminal;
  close(): Promise<void>;
}

export async function startTerminalClient(url: string): Promise<TerminalClient> {
  const dir = await tempDir("claude-a2a-client-e2e-");
  const terminals: Terminal[] = [];
  const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: dir.path, A2A_URL: url };
  return {
    configHome: dir.path,
    env,
    run: (argv, o = {}) => runCli(argv, { env, ...o }),
    chat(extra = []) {
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        XDG_CONFIG_HOME: dir.path,
        NO_COLOR: "1",
      };
      delete childEnv.A2A_URL;
      const term = runInTerminal(["chat", "--url", url, ...extra], childEnv, process.cwd());
      terminals.push(term);
      return term;
    },
    async close() {
      for (const term of terminals.splice(0)) {
        term.kill();
        await term.exited;
      }
      await dir.close();
    },
  };
}
