/**
 * The server's help text, alone in its module: `claude-a2a --help` prints it without loading the
 * server (src/cli.ts), as the client's commands load only what they use.
 */
export const USAGE = `Usage: claude-a2a [serve] [options]

Serves a Claude Code agent, working in the current directory, over the A2A protocol v1.0.
Settings are read from .claude/claude-a2a.config.json in the working directory.

Options:
  -p, --port <port>    port to listen on (default 3008, or server.port)
      --host <host>    address to bind (default 127.0.0.1, or server.host)
  -c, --config <file>  config file (default .claude/claude-a2a.config.json)
      --cwd <dir>      Claude's working directory (default: the current directory)
      --workspace <name>=<dir>
                       serve <dir> as the workspace <name> under /agents/<name>/
                       (repeatable; adds to, or overrides, the config's workspaces)
      --scripted <rules.json>
                       serve on a scripted model (no login, no network; its state kept
                       apart from the real server's): docs/demo.md, example in
                       docs/examples/scripted-rules.json
      --check          check the config and the environment, print what is wrong, and exit
  -h, --help           show this help and exit
  -v, --version        print the version and exit

Environment:
  LOG_LEVEL            log level: fatal, error, warn, info, debug, trace, silent
                       (overrides log.level in the config file; default info)
  LOG_FORMAT           json or pretty (default: pretty on a terminal, else JSON lines)

Client commands (talk to this or any A2A agent; add --help to each):
  claude-a2a chat      an interactive conversation
  claude-a2a send      send one message and stream the answer
  claude-a2a tasks     list tasks; claude-a2a task <id> shows one; claude-a2a cancel <id>
  claude-a2a triggers  an operator's list of triggers; claude-a2a triggers fire <name> runs one

Offline demo (no account, no network; npm run demo in a clone):
  claude-a2a demo      a scripted model and the server on it, in a temporary git workspace
`;
