/**
 * A minimal MCP server over stdio (newline-delimited JSON-RPC) with one tool, `echo`: enough for
 * Claude Code to connect to it and offer its tool to the model (as `mcp__<name>__echo`). Started
 * by the runtime through `mcpEchoServer()`.
 */
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

interface Request {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: { protocolVersion?: string; arguments?: { text?: string } };
}

/** The `claude.mcpServers` entry that runs this file (node with the tsx loader). */
export function mcpEchoServer() {
  const loader = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
  return {
    command: process.execPath,
    args: ["--import", loader, fileURLToPath(import.meta.url)],
    alwaysLoad: true,
  };
}

const send = (message: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

function answer(request: Request): unknown {
  switch (request.method) {
    case "initialize":
      return {
        protocolVersion: request.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "echo", version: "1.0.0" },
      };
    case "tools/list":
      return {
        tools: [
          {
            name: "echo",
            description: "Echoes its text back.",
            inputSchema: { type: "object", properties: { text: { type: "string" } } },
          },
        ],
      };
    case "tools/call":
      return {
        content: [{ type: "text", text: `echo: ${request.params?.arguments?.text ?? ""}` }],
      };
    default:
      return undefined;
  }
}

function serve(): void {
  createInterface({ input: process.stdin }).on("line", (line) => {
    let request: Request;
    try {
      request = JSON.parse(line) as Request;
    } catch {
      return;
    }
    if (request.id === undefined) return; // a notification
    const result = answer(request);
    if (result === undefined) {
      send({ id: request.id, error: { code: -32601, message: `no method ${request.method}` } });
    } else {
      send({ id: request.id, result });
    }
  });
}

// Run as a script (by the runtime), not when a test imports `mcpEchoServer`.
if (process.argv[1] === fileURLToPath(import.meta.url)) serve();
