import type { PeersConfig } from "../config/peers-schema.js";
import type { Config } from "../config/schema.js";
import { workspaceConfig } from "../config/workspaces.js";
import { Peer, type PeerNetwork } from "../peers/peer-client.js";
import type { CheckResult } from "./check-result.js";

/**
 * `--check` of `peers` (docs/peers.md): each peer's card is read now, through the same address
 * check, token and timeouts as a delegated call, and reported; `siblings` (this server's own
 * workspaces, not up while the check runs) are listed, not read.
 */
export async function checkPeers(
  config: PeersConfig,
  siblings: readonly string[] = [],
  network: PeerNetwork = {},
): Promise<CheckResult[]> {
  return Promise.all(
    Object.entries(config.agents).map(async ([name, peerConfig]): Promise<CheckResult> => {
      const label = `peer ${name}`;
      if (siblings.includes(name)) {
        return { name: label, ok: true, detail: "a sibling workspace of this server" };
      }
      const peer = new Peer(name, peerConfig, config, network);
      try {
        const card = await peer.card();
        const skills = card.skills.map((s) => s.name);
        return {
          name: label,
          ok: true,
          detail: `${card.name} at ${peer.cardUrl}${skills.length > 0 ? `, skills: ${skills.join(", ")}` : ""}`,
        };
      } catch (err) {
        return {
          name: label,
          ok: false,
          detail: `its card at ${peer.cardUrl} cannot be read: ${(err as Error).message}`,
          fix: "check peers.agents." + name + ".url, that the peer is up, and its auth",
        };
      }
    }),
  );
}

/** The peers of the agent at the root, or of each workspace (its name after each line's). */
export async function checkEveryPeer(config: Config): Promise<CheckResult[]> {
  if (config.workspaces.length === 0) return checkPeers(config.peers);
  const results: CheckResult[] = [];
  for (const [i, spec] of config.workspaces.entries()) {
    const peers = workspaceConfig(config, spec, i === 0).peers;
    for (const r of await checkPeers(peers, spec.peers?.workspaces)) {
      results.push({ ...r, name: `${r.name} ${spec.name}` });
    }
  }
  return results;
}
