/**
 * A peer A2A agent for the unit tests of delegation: a loopback HTTP listener serving a card and
 * the JSON-RPC methods a delegated call uses, each answer scripted by the test. Only 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AgentCard,
  StreamResponse,
  Task,
  TaskState,
  type Part,
  type StreamResponse as Event,
} from "@a2a-js/sdk";
import { agentMessage } from "../../../../src/contract/messages.js";

export interface RpcCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

export interface LoopbackPeer {
  /** Its base URL (the card at `/.well-known/agent-card.json`). */
  readonly url: string;
  /** Every JSON-RPC call, in order. */
  readonly calls: RpcCall[];
  /** The events of the next SendStreamingMessage streams, one list per call. */
  readonly streams: Event[][];
  close(): Promise<void>;
}

export const PEER_TASK = { taskId: "peer-1", contextId: "peer-ctx" };

/**
 * A status update of the peer's task, with `parts` as its message (of `metadata.kind` `kind`)
 * and `metadata`.
 */
export function peerStatus(
  state: TaskState,
  parts: Part[] = [],
  metadata?: object,
  kind?: string,
): Event {
  const ref = PEER_TASK;
  return {
    payload: {
      $case: "statusUpdate",
      value: {
        ...ref,
        status: {
          state,
          message:
            parts.length > 0 ? agentMessage(ref, parts, kind ? { kind } : undefined) : undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: metadata,
      },
    },
  };
}

/** The peer's task, as its stream's first event. */
export const peerTask = (state = TaskState.TASK_STATE_SUBMITTED): Event => ({
  payload: { $case: "task", value: taskOf(state) },
});

const taskOf = (state: TaskState): Task => ({
  id: PEER_TASK.taskId,
  contextId: PEER_TASK.contextId,
  status: { state, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [],
  metadata: undefined,
});

/** The usage a claude-a2a peer reports on its final status (`metadata.usage`). */
export const reportedUsage = (costUsd: number) => ({
  usage: {
    costUsd,
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    models: {},
    modelTurns: 1,
    durationMs: 5,
    runs: 1,
  },
});

export async function loopbackPeer(): Promise<LoopbackPeer> {
  const calls: RpcCall[] = [];
  const streams: Event[][] = [];
  let url = "";
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/.well-known/agent-card.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(AgentCard.toJSON(card(`${url}/a2a/jsonrpc`))));
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const rpc = JSON.parse(body) as RpcCall & { id: number };
      calls.push({ method: rpc.method, params: rpc.params });
      const frame = (result: unknown) => JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result });
      if (rpc.method === "SendStreamingMessage") {
        const events = streams.shift() ?? [];
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(events.map((e) => `data: ${frame(StreamResponse.toJSON(e))}\n\n`).join(""));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(frame(Task.toJSON(taskOf(TaskState.TASK_STATE_CANCELED))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    streams,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function card(interfaceUrl: string): AgentCard {
  return AgentCard.fromJSON({
    name: "Peer B",
    description: "A peer",
    version: "1.0.0",
    supportedInterfaces: [
      { url: interfaceUrl, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
  });
}
