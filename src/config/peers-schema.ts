import { z } from "zod";
import { httpUrl, intBetween, name, positiveInt } from "./schema-parts.js";
import { WORKSPACE_NAME, WORKSPACE_NAME_ERROR } from "./workspace-names.js";

/**
 * The `peers` section (docs/peers.md): the other A2A agents Claude may delegate to, by name, each
 * reached only at the card URL the operator wrote here (Claude names a peer, never a URL), and
 * the bounds of every delegated call.
 */

/** How a call authenticates to a peer: a bearer token read from an environment variable, or none. */
const peerAuthSchema = z
  .union(
    [
      z.literal("none"),
      z.strictObject({
        tokenEnv: name()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an environment variable name" })
          .describe(
            "The environment variable holding the bearer token sent to this peer. Read when " +
              "the call is made; the token itself is never in the config or the logs.",
          ),
        origins: z
          .array(httpUrl(), { error: "expected an array of URLs" })
          .optional()
          .describe(
            "Origins (scheme://host:port; only a URL's origin counts) the token may also be " +
              "sent to, besides the url's own: where the peer's card lists its interfaces, " +
              "when on another host. Default: none, so a redirect or an interface elsewhere " +
              "is called without the token.",
          ),
      }),
    ],
    { error: 'expected "none" or { "tokenEnv": "<VARIABLE>", "origins"?: [URLs] }' },
  )
  .default("none")
  .describe(
    '"none", or { "tokenEnv": "<VARIABLE>" }: a bearer token from that variable, sent only to ' +
      "the url's origin (and auth.origins).",
  );

export const peerSchema = z.strictObject({
  url: httpUrl().describe(
    "The peer's agent card URL (e.g. https://agent.example.com/.well-known/agent-card.json); " +
      "a URL without a path gets /.well-known/agent-card.json.",
  ),
  auth: peerAuthSchema,
  allowPrivateNetwork: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Allow this peer on loopback, private, link-local and unique-local addresses, as " +
        "server.pushAllowPrivateNetworks does for webhooks. Off: every request to it (its card " +
        "and the interfaces the card lists) must resolve to public addresses only.",
    ),
  description: name()
    .optional()
    .describe("What list_agents says of the peer when its card cannot be read."),
});

const PEER_NAME = WORKSPACE_NAME;
const peerNameError = WORKSPACE_NAME_ERROR.replace("a workspace name", "a peer name");

const peerAgentsSchema = z
  .record(z.string().regex(PEER_NAME, { error: peerNameError }), peerSchema, {
    error: (issue) =>
      issue.code === "invalid_key" ? peerNameError : "expected an object of peers by name",
  })
  .describe(
    "The peers by name (lowercase letters, digits, inner hyphens): the name is how Claude " +
      "calls one (list_agents, send_message).",
  );

export const peersSchema = z
  .strictObject({
    agents: peerAgentsSchema.default({}),
    maxDepth: intBetween(1, 20)
      .default(3)
      .describe(
        "Longest chain of delegations: a call is refused when the task making it was itself " +
          "created by a delegated call this many hops deep (metadata.delegationDepth). Stops " +
          "loops such as A→B→A.",
      ),
    requestTimeoutMs: positiveInt()
      .default(15_000)
      .describe(
        "Bound of each request to a peer that is not the streamed answer (ms): its card, " +
          "get_task, a cancel, an answer forwarded to it, and the wait for its stream to open.",
      ),
    callTimeoutMs: positiveInt()
      .default(30 * 60_000)
      .describe(
        "Bound of one send_message call (ms), the peer's whole answer included: after it the " +
          "peer's task is canceled and the tool returns an error.",
      ),
    retries: intBetween(0, 5)
      .default(2)
      .describe(
        "How often a request that could not reach the peer (no connection, a 502/503/504) is " +
          "tried again, 0.5 s then 1 s, 2 s… apart. A message is resent with the same " +
          "messageId, so a peer that keeps idempotency keys (claude-a2a does) runs it once.",
      ),
    workspaceAuth: peerAuthSchema.describe(
      "How a workspace authenticates to a sibling workspace of this server it lists " +
        "(workspaces.<name>.peers.workspaces).",
    ),
  })
  .describe(
    "Other A2A agents Claude may delegate to, through the a2a tools (docs/peers.md). No " +
      "peers: no tools.",
  );

export const workspacePeersSchema = z
  .strictObject({
    agents: peerAgentsSchema
      .optional()
      .describe("Peers of this workspace besides peers.agents (a name here replaces that one)."),
    workspaces: z
      .array(z.string().regex(WORKSPACE_NAME, { error: WORKSPACE_NAME_ERROR }), {
        error: "expected an array of workspace names",
      })
      .optional()
      .describe(
        "Sibling workspaces of this server that this workspace may call, by name (the peer's " +
          "name is the workspace's). Default: none.",
      ),
  })
  .describe("The peers of this workspace: peers.agents, these agents, and these siblings.");

export type PeersConfig = z.output<typeof peersSchema>;
export type PeerConfig = z.output<typeof peerSchema>;
export type WorkspacePeers = z.output<typeof workspacePeersSchema>;
