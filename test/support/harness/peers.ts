/**
 * Two servers, A delegating to B through the `a2a` MCP tools: A's config naming B (allowed on
 * loopback), and A's script calling `send_message` and relaying what B answered.
 */
import type { A2AHarness } from "./in-process.js";
import { reply, text, toolUse, type Rule } from "./model.js";

export const SEND_MESSAGE_TOOL = "mcp__a2a__send_message";

/** A's config with B as its peer `b` (loopback allowed), `extra` merged into B's entry. */
export const peerOf = (b: A2AHarness, extra: Record<string, unknown> = {}) => ({
  peers: { agents: { b: { url: b.server.url, allowPrivateNetwork: true, ...extra } } },
});

/** A's rules: `prompt` makes Claude call send_message with `input`; its result is relayed. */
export const delegating = (prompt: string, input: Record<string, unknown>): Rule[] => [
  {
    name: "delegate",
    match: { lastUserText: prompt, toolResult: false },
    reply: reply(toolUse(SEND_MESSAGE_TOOL, input)),
  },
  {
    name: "relay",
    match: { toolResult: true },
    reply: (req) => reply(text(`A relays: ${req.toolResults.at(-1)?.content ?? ""}`)),
  },
];
