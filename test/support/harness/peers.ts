/**
 * Delegation to a peer (docs/peers.md): server A's config naming server B as its peer `b`
 * (allowed on loopback), and A's scripted rules: a prompt makes Claude call `send_message`, and
 * the tool's result is relayed as the answer.
 */
import { withoutReminders } from "../../../src/demo/rules.js";
import { reply, text, toolUse, type Rule } from "./model.js";

export const SEND_MESSAGE_TOOL = "mcp__a2a__send_message";

/** A's config: B (by its URL) as the peer `b`, with `extra` settings of that peer. */
export const peerOf = (b: { server: { url: string } }, extra: Record<string, unknown> = {}) => ({
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
    // The tool's own result: the runtime appends a `<system-reminder>` (tokens left) to it, which
    // a model reads and does not relay.
    reply: (req) =>
      reply(text(`A relays: ${withoutReminders(req.toolResults.at(-1)?.content ?? "")}`)),
  },
];
