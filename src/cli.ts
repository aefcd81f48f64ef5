#!/usr/bin/env node
import { main } from "./app/main.js";

/** The exit code of a client left with a second Ctrl-C (`EXIT.interrupted`, 128 + SIGINT). */
const INTERRUPTED = 130;

const CLIENT_COMMANDS: readonly string[] = ["send", "chat", "tasks", "task", "cancel"];

/**
 * `claude-a2a send|chat|tasks|task|cancel …` is the client, `claude-a2a demo` the offline demo;
 * anything else starts the server.
 */
const isClientCommand = (argv: readonly string[]): boolean =>
  argv[0] !== undefined && CLIENT_COMMANDS.includes(argv[0]);

const io = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
};
const argv = process.argv.slice(2);
const run = isClientCommand(argv)
  ? import("./client/index.js").then(({ runClient, processEnv }) => runClient(argv, processEnv()))
  : argv[0] === "demo"
    ? import("./demo/main.js").then(({ runDemo }) => runDemo(argv.slice(1), io))
    : main(
        argv,
        { ...io, errIsTTY: process.stderr.isTTY === true },
        // `--scripted`: the scripted model lives in demo/, above the server's layer.
        { scripted: (file) => import("./demo/scripted.js").then((m) => m.startScripted(file)) },
      );

run.then(
  (code) => {
    process.exitCode = code;
    // A second Ctrl-C means "quit now": a cancel the server has not answered yet must not keep
    // the client alive (its request would hold the event loop until the server answers).
    if (code === INTERRUPTED) process.stderr.write("", () => process.exit(code));
    // The demo has closed its server and removed its workspace; a chat it ran on this terminal
    // may still hold standard input open, which is not a reason to stay.
    else if (argv[0] === "demo") process.stdout.write("", () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(`claude-a2a: unexpected error: ${String((err as Error).stack ?? err)}\n`);
    process.exitCode = 1;
  },
);
