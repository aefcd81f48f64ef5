import {
  createSdkMcpServer,
  tool,
  type McpSdkServerConfigWithInstance,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import type { DelegatingTask } from "../a2a/task/task-delegation.js";
import type { PeersConfig } from "../config/peers-schema.js";
import { sendToPeer, type CallOutcome } from "./call.js";
import { callRefusal, stateName } from "./decisions.js";
import type { Peer } from "./peer-client.js";

/** The in-process MCP server's name: the model sees its tools as `mcp__a2a__<tool>`. */
export const A2A_SERVER = "a2a";
export const A2A_TOOLS = ["list_agents", "send_message", "get_task"] as const;
export const A2A_TOOL_NAMES = A2A_TOOLS.map((t) => `mcp__${A2A_SERVER}__${t}`);

/** The runtime's tool use id of an MCP call: Claude Code puts it in the request's `_meta`. */
const TOOL_USE_ID_META = "claudecode/toolUseId";

export interface A2AToolsOptions {
  readonly peers: ReadonlyMap<string, Peer>;
  readonly config: Pick<PeersConfig, "maxDepth" | "callTimeoutMs" | "requestTimeoutMs">;
  /** The session's working directory (its worktree, under isolation). */
  readonly cwd: string;
  /** The task whose run made the tool call `toolUseId`, if one owns it. */
  readonly taskOf: (toolUseId: string, signal?: AbortSignal) => Promise<DelegatingTask | undefined>;
}

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const ok = (text: string): ToolResult => ({ content: [{ type: "text", text }] });
const error = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

interface Extra {
  readonly _meta?: Record<string, unknown>;
  readonly signal?: AbortSignal;
}
const extraOf = (extra: unknown): Extra =>
  typeof extra === "object" && extra !== null ? extra : {};

/** The text a send_message result gives Claude. */
export function describeOutcome(o: CallOutcome): ToolResult {
  if (!o.ok) return error(o.reason);
  const files = o.files.length === 0 ? "" : `\n\nFiles saved: ${o.files.join(", ")}`;
  const answered = `${o.agent} answered (task ${o.taskId}, contextId ${o.contextId}; pass that contextId to continue this conversation):\n\n${o.text}${files}`;
  if (o.filesRefused !== undefined) {
    return error(`${answered}\n\nIts files were not saved: ${o.filesRefused}`);
  }
  return ok(answered);
}

/**
 * The `a2a` MCP server of one Claude Code process (docs/peers.md "Tools"), built with the SDK's
 * own `createSdkMcpServer` and `tool()`: one per process, since an MCP server instance serves
 * one connection. Claude names a configured peer, never a URL.
 */
export function a2aMcpServer(o: A2AToolsOptions): McpSdkServerConfigWithInstance {
  return createSdkMcpServer({
    name: A2A_SERVER,
    version: "1.0.0",
    tools: a2aTools(o),
    // A delegated call waits as long as the peer works (peers.callTimeoutMs bounds it).
    timeout: o.config.callTimeoutMs + o.config.requestTimeoutMs,
  });
}

/** The tools of the `a2a` server, by the SDK's `tool()` (tests call their handlers). */
export function a2aTools(o: A2AToolsOptions) {
  const known = [...o.peers.keys()];
  const callerOf = async (extra: unknown) => {
    const { _meta, signal } = extraOf(extra);
    const id = _meta?.[TOOL_USE_ID_META];
    return typeof id === "string" ? o.taskOf(id, signal) : undefined;
  };
  const noTask = error("This tool call belongs to no task of this server; nothing was sent.");

  const listAgents = tool(
    "list_agents",
    "Lists the other A2A agents (peers) you may delegate to: each one's name, description and skills, from its agent card.",
    {},
    async () => {
      const lines = await Promise.all(
        [...o.peers.values()].map(async (peer) => {
          try {
            const card = await peer.card();
            const skills = card.skills.map(
              (s) => `${s.name}${s.description ? `: ${s.description}` : ""}`,
            );
            return `- ${peer.name}: ${card.description || card.name}${skills.length ? `\n  skills: ${skills.join("; ")}` : ""}`;
          } catch (err) {
            const about = peer.config.description ?? "";
            return `- ${peer.name}: ${about} (its card could not be read: ${(err as Error).message})`;
          }
        }),
      );
      return ok(lines.length === 0 ? "No peers are configured." : lines.join("\n"));
    },
    { annotations: { readOnlyHint: true } },
  );

  const sendMessage = tool(
    "send_message",
    "Sends a message to another A2A agent (a peer named by list_agents) and waits for its answer: its text, and the files of its artifacts, saved under .a2a/peers/ in the working directory. Its questions are passed to your own caller. Pass the contextId of an earlier answer to continue that conversation.",
    {
      agent: z.string().describe("The peer's name, as list_agents gives it."),
      text: z.string().describe("The message."),
      files: z
        .array(z.string())
        .optional()
        .describe("Paths of files in the working directory to send with it."),
      contextId: z
        .string()
        .optional()
        .describe(
          "The contextId of an earlier answer of this peer, to continue that conversation.",
        ),
    },
    async (args, extra) => {
      const task = await callerOf(extra);
      if (task === undefined) return noTask;
      const refusal = callRefusal(args.agent, known, task.depth, o.config.maxDepth);
      const peer = o.peers.get(args.agent);
      if (refusal !== undefined || peer === undefined) return error(refusal ?? "unknown peer");
      const outcome = await sendToPeer(
        {
          peer,
          task,
          cwd: o.cwd,
          callTimeoutMs: o.config.callTimeoutMs,
          requestTimeoutMs: o.config.requestTimeoutMs,
          signal: extraOf(extra).signal,
        },
        args,
      );
      return describeOutcome(outcome);
    },
  );

  const getTask = tool(
    "get_task",
    "Reads the state and answer of a task of a peer (a taskId a send_message result gave).",
    {
      agent: z.string().describe("The peer's name."),
      taskId: z.string().describe("The peer's task id."),
    },
    async (args, extra) => {
      const task = await callerOf(extra);
      if (task === undefined) return noTask;
      const peer = o.peers.get(args.agent);
      const refusal = callRefusal(args.agent, known, 0, o.config.maxDepth);
      if (refusal !== undefined || peer === undefined) return error(refusal ?? "unknown peer");
      try {
        const client = await peer.connect();
        const found = await client.getTask(
          { tenant: "", id: args.taskId, historyLength: 1 },
          { signal: AbortSignal.timeout(o.config.requestTimeoutMs) },
        );
        const message = found.status?.message?.parts
          .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
          .join("\n");
        return ok(
          JSON.stringify({
            taskId: found.id,
            contextId: found.contextId,
            state: stateName(found.status?.state),
            message,
          }),
        );
      } catch (err) {
        return error(`get_task on ${args.agent} failed: ${(err as Error).message}`);
      }
    },
    { annotations: { readOnlyHint: true } },
  );

  return [listAgents, sendMessage, getTask];
}
