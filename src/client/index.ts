import type { ClientEnv } from "./env.js";

export { runClient } from "./program.js";
export type { ClientEnv } from "./env.js";

/** The real terminal: process streams, environment and SIGINT. */
export function processEnv(): ClientEnv {
  // `claude-a2a tasks | head`: a reader that leaves is not an error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    onInterrupt: (handler) => {
      process.on("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  };
}
