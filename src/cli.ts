#!/usr/bin/env node
import { main } from "./main.js";

const CLIENT_COMMANDS: readonly string[] = ["send", "chat", "tasks", "task", "cancel"];

/** `claude-a2a send|chat|tasks|task|cancel …` is the client; anything else starts the server. */
const isClientCommand = (argv: readonly string[]): boolean =>
  argv[0] !== undefined && CLIENT_COMMANDS.includes(argv[0]);

const argv = process.argv.slice(2);
const run = isClientCommand(argv)
  ? import("./client/index.js").then(({ runClient, processEnv }) => runClient(argv, processEnv()))
  : main(argv, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      errIsTTY: process.stderr.isTTY === true,
    });

run.then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`claude-a2a: unexpected error: ${String((err as Error).stack ?? err)}\n`);
    process.exitCode = 1;
  },
);
