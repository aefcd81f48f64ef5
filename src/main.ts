import { parseArgs } from "node:util";
import { packageVersion } from "./version.js";

export const USAGE = `Usage: claude-a2a [options]

Serves a Claude Code agent, working in the current directory, over the A2A protocol v1.0.

Options:
  -h, --help     show this help and exit
  -v, --version  print the version and exit
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the command line; returns the process exit code. */
export function main(argv: readonly string[], io: Io): number {
  let values: { help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
    }));
  } catch (err) {
    io.err(`claude-a2a: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.version) {
    io.out(`${packageVersion()}\n`);
    return 0;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  // The A2A server itself lands with its own issue; until then say so instead of exiting silently.
  io.err(`claude-a2a: the A2A server is not implemented yet.\n\n${USAGE}`);
  return 1;
}
