import { readFile } from "node:fs/promises";
import type { Client } from "@a2a-js/sdk/client";
import { colorEnabled, makeColors, type Colors } from "./colors.js";
import { connect, type ConnectOptions, type TransportChoice } from "./connect.js";
import { contextMemory, type ContextMemory } from "./context-memory.js";
import { configDir, resolveUrl } from "./defaults.js";
import { workspaceUrl } from "./workspaces-hint.js";

/** Everything a command touches outside itself: injected, so tests drive it in-process. */
export interface ClientEnv {
  out(text: string): void;
  err(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  readonly stdoutIsTTY: boolean;
  /** Standard input, for `send -`. */
  readStdin(): Promise<string>;
  /** Terminal streams for the interactive prompts (default: the process's). */
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
  /** Subscribes to Ctrl-C (SIGINT) while a turn runs; returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void;
  connect?(url: string, token?: string, options?: ConnectOptions): Promise<Client>;
}

export interface CommonOptions {
  url?: string;
  /** `--workspace`: the agent at `<url>/agents/<name>/`. */
  workspace?: string;
  token?: string;
  transport?: TransportChoice;
  grpcTls?: boolean;
  /** A CA certificate file (PEM) to trust for gRPC over TLS; implies `grpcTls`. */
  grpcCa?: string;
}

/** What `--transport`, `--grpc-tls` and `--grpc-ca` ask of the connection. */
export async function connectOptions(o: CommonOptions): Promise<ConnectOptions> {
  if (o.grpcCa === undefined)
    return { transport: o.transport, grpcTls: o.grpcTls ? true : undefined };
  const ca = await readFile(o.grpcCa).catch((err: unknown) => {
    throw new Error(`cannot read --grpc-ca ${o.grpcCa}: ${(err as Error).message}`);
  });
  return { transport: o.transport, grpcTls: ca };
}

export interface Session {
  readonly url: string;
  readonly colors: Colors;
  readonly memory: ContextMemory;
  client(): Promise<Client>;
}

export function session(o: CommonOptions, e: ClientEnv): Session {
  const root = resolveUrl(o.url, e.env);
  const url = o.workspace === undefined ? root : workspaceUrl(root, o.workspace);
  const token = o.token ?? e.env.A2A_TOKEN;
  let client: Promise<Client> | undefined;
  return {
    url,
    colors: makeColors(colorEnabled(e.stdoutIsTTY, e.env)),
    memory: contextMemory(configDir(e.env)),
    client: () =>
      (client ??= connectOptions(o).then((options) => (e.connect ?? connect)(url, token, options))),
  };
}

/** Writes rendered outputs to their streams. */
export function write(e: ClientEnv, outputs: readonly { to: "out" | "err"; text: string }[]): void {
  for (const x of outputs) {
    if (x.to === "out") e.out(x.text);
    else e.err(x.text);
  }
}
