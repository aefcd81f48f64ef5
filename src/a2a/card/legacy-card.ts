import type { AgentCard } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { agentCardJson } from "./agent-card.js";

type Json = Record<string, unknown>;

/**
 * The card as a v0.3 client reads it: v0.3's `url`, `preferredTransport`, `protocolVersion` and
 * `additionalInterfaces` (from the card's 0.3 interfaces), with the v1.0 `supportedInterfaces`
 * kept beside them, as the SDK's own card handler serves it (the two versions share no
 * top-level field, so a v1.0 client reading this card still finds its interfaces).
 *
 * The SDK (1.3) exports its v1.0 → v0.3 card translator only inside its transports: this asks
 * its v0.3 JSON-RPC transport for `agent/getAuthenticatedExtendedCard` of a handler that knows
 * nothing but `card`. Built once at startup; served through our card route, not the SDK's
 * (see card-route.ts). It carries no signatures (`agentCard.signing` signs the v1.0 card).
 */
export async function legacyAgentCardJson(card: AgentCard): Promise<Json> {
  const only = { getAuthenticatedExtendedAgentCard: () => Promise.resolve(card) };
  const transport = new LegacyJsonRpcTransportHandler(only as unknown as A2ARequestHandler);
  const answer = (await transport.handle(
    { jsonrpc: "2.0", id: 0, method: "agent/getAuthenticatedExtendedCard" },
    new ServerCallContext(),
  )) as { result?: unknown; error?: { message?: unknown } };
  if (typeof answer.result !== "object" || answer.result === null) {
    throw new Error(`the v0.3 agent card cannot be built: ${String(answer.error?.message)}`);
  }
  // A signature covers the v1.0 card (its canonical form): over this one it would not verify.
  const { signatures: _v1Only, ...legacy } = answer.result as Json;
  return { ...legacy, supportedInterfaces: agentCardJson(card).supportedInterfaces };
}
