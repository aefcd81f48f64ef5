#!/usr/bin/env node
// Every import below is dynamic: a client command must not pay for loading the server (the
// server's modules cost about ten times what `node -e 0` does), nor the server for the client.

/** The exit code of a client left with a second Ctrl-C (`EXIT.interrupted`, 128 + SIGINT). */
const INTERRUPTED = 130;

const CLIENT_COMMANDS: readonly string[] = ["send", "chat", "tasks", "task", "cancel", "triggers"];

/**
 * `claude-a2a send|chat|tasks|task|cancel|triggers …` is the client, `claude-a2a demo` the offline demo;
 * anything else starts the server.
 */
const isClientCommand = (argv: readonly string[]): boolean =>
  argv[0] !== undefined && CLIENT_COMMANDS.includes(argv[0]);

/** `claude-a2a --help` alone: the server's help, answered without loading the server. */
const isHelpOnly = (argv: readonly string[]): boolean =>
  argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h");

/** `claude-a2a --version` alone: answered without loading the server. */
const isVersionOnly = (argv: readonly string[]): boolean =>
  argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v");

/** What `claude-a2a <word>` may start: a typo of one is answered with the nearest. */
const COMMANDS: readonly string[] = [...CLIENT_COMMANDS, "demo", "serve"];

/** `sned` → "did you mean send?", exit 2; undefined when argv starts with no such typo. */
async function typo(argv: readonly string[]): Promise<number | undefined> {
  const word = argv[0];
  // Options and the server's own words go to the server, which explains them itself.
  if (word === undefined || word.startsWith("-")) return undefined;
  if (COMMANDS.includes(word)) return undefined;
  const { nearestCommand } = await import("./client/suggest.js");
  const nearest = nearestCommand(word, COMMANDS);
  if (nearest === undefined) return undefined;
  io.err(
    `claude-a2a: unknown command "${word}". Did you mean ${nearest}?\n(claude-a2a --help lists the commands)\n`,
  );
  return 2;
}

const io = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
};
// `claude-a2a serve …` is the server too, as `claude-a2a …` is (the word people type for it).
const argv = process.argv[2] === "serve" ? process.argv.slice(3) : process.argv.slice(2);
const start = (): Promise<number> =>
  isVersionOnly(argv)
    ? import("./common/version.js").then(({ packageVersion }) => {
        io.out(`${packageVersion()}\n`);
        return 0;
      })
    : isHelpOnly(argv)
      ? import("./app/usage.js").then(({ USAGE }) => {
          io.out(USAGE);
          return 0;
        })
      : isClientCommand(argv)
        ? import("./client/index.js").then(({ runClient, processEnv }) =>
            runClient(argv, processEnv()),
          )
        : argv[0] === "demo"
          ? import("./demo/main.js").then(({ runDemo }) => runDemo(argv.slice(1), io))
          : import("./app/main.js").then(({ main }) =>
              main(
                argv,
                { ...io, errIsTTY: process.stderr.isTTY === true },
                // `--scripted`: the scripted model lives in demo/, above the server's layer.
                {
                  scripted: (file) =>
                    import("./demo/scripted.js").then((m) => m.startScripted(file)),
                },
              ),
            );
const run = typo(argv).then((code) => code ?? start());

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
