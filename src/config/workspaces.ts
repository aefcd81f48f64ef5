import { withTriggerLimits } from "./triggers-schema.js";
import { isAbsolute, resolve } from "node:path";
import { ConfigError, describeValue } from "./errors.js";
import type { PeerConfig } from "./peers-schema.js";
import type { Config } from "./schema.js";
import {
  WORKSPACE_NAME,
  WORKSPACE_NAME_ERROR,
  type WorkspaceCallers,
  type WorkspaceEntry,
  type WorkspaceSpec,
} from "./workspace-schema.js";

export type { WorkspaceSpec } from "./workspace-schema.js";

/**
 * The decisions about `workspaces` and `--workspace name=dir`, pure: which workspaces there are,
 * whether they are consistent, and the whole config each one runs with.
 */

/** Where the workspaces are mounted: `/agents/<name>/…`. */
export const WORKSPACES_PATH = "/agents";

/** `api=../api` → its name and directory; a ConfigError naming the flag otherwise. Pure. */
export function parseWorkspaceFlag(flag: string): { name: string; dir: string } {
  const at = flag.indexOf("=");
  const name = at < 0 ? "" : flag.slice(0, at).trim();
  const dir = at < 0 ? "" : flag.slice(at + 1).trim();
  if (at < 0 || dir === "") {
    throw new ConfigError(
      `Invalid option --workspace: expected <name>=<directory>, got ${describeValue(flag)}`,
    );
  }
  if (!WORKSPACE_NAME.test(name)) {
    throw new ConfigError(
      `Invalid option --workspace: ${WORKSPACE_NAME_ERROR}, got ${describeValue(name)}`,
    );
  }
  return { name, dir };
}

/** The keys of `parsed` that `raw` wrote (defaults the schema filled in are left out). Pure. */
export function writtenKeys<T extends object>(parsed: T | undefined, raw: unknown): Partial<T> {
  if (parsed === undefined || typeof raw !== "object" || raw === null) return {};
  const out: Partial<T> = {};
  for (const key of Object.keys(raw) as (keyof T)[]) {
    if (key in parsed) out[key] = parsed[key];
  }
  return out;
}

/**
 * The workspaces of the config file (in its order), then those of `--workspace` flags: a flag
 * naming a workspace of the file gives it another directory; a name given twice by flags is an
 * error. Directories resolve against `startDir`. Pure.
 */
export function resolveWorkspaces(
  parsed: Readonly<Record<string, WorkspaceEntry>> | undefined,
  raw: unknown,
  flags: readonly string[],
  startDir: string,
): WorkspaceSpec[] {
  const rawEntries = (raw ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const specs = new Map<string, WorkspaceSpec>();
  for (const [name, entry] of Object.entries(parsed ?? {})) {
    specs.set(name, {
      name,
      cwd: resolve(startDir, entry.cwd),
      agentCard: writtenKeys(entry.agentCard, rawEntries[name]?.agentCard),
      claude: writtenKeys(entry.claude, rawEntries[name]?.claude),
      maxLive: entry.sessions?.maxLive,
      callers: entry.callers,
      peers: entry.peers,
      triggers: entry.triggers,
    });
  }
  const flagged = new Set<string>();
  for (const flag of flags) {
    const { name, dir } = parseWorkspaceFlag(flag);
    if (flagged.has(name)) {
      throw new ConfigError(`Invalid option --workspace: workspace "${name}" is given twice`);
    }
    flagged.add(name);
    const known = specs.get(name);
    const cwd = resolve(startDir, dir);
    specs.set(name, known ? { ...known, cwd } : { name, cwd, agentCard: {}, claude: {} });
  }
  return [...specs.values()];
}

/**
 * What is wrong with the workspaces as a whole, one sentence naming the workspace, or undefined:
 * two names for one directory (compared as `realDirs` gives them, symlinks followed), a token
 * name `callers.tokens` lists that `server.auth.tokens` does not have, one absolute SQLite file
 * for several workspaces. Pure.
 */
export function workspacesProblem(
  specs: readonly WorkspaceSpec[],
  config: Pick<Config, "server" | "store">,
  realDirs: readonly string[] = specs.map((s) => s.cwd),
): string | undefined {
  const byDir = new Map<string, string>();
  for (const [i, spec] of specs.entries()) {
    const dir = realDirs[i] ?? spec.cwd;
    const other = byDir.get(dir);
    if (other !== undefined) {
      return `Workspaces "${other}" and "${spec.name}" are the same directory (${dir}): give each directory one name.`;
    }
    byDir.set(dir, spec.name);
  }
  const names = new Set(specs.map((s) => s.name));
  for (const spec of specs) {
    const sibling = spec.peers?.workspaces?.find((w) => !names.has(w) || w === spec.name);
    if (sibling !== undefined) {
      return sibling === spec.name
        ? `Workspace "${spec.name}": peers.workspaces lists itself; a workspace calls only its siblings.`
        : `Workspace "${spec.name}": peers.workspaces names "${sibling}", which is not a workspace of this server.`;
    }
  }
  const tokens = new Set(config.server.auth.tokens.map((t) => t.name));
  for (const spec of specs) {
    const unknown = spec.callers?.tokens?.find((t) => !tokens.has(t));
    if (unknown !== undefined) {
      return `Workspace "${spec.name}": callers.tokens names "${unknown}", which is not a token of server.auth.tokens.`;
    }
  }
  if (specs.length > 1 && config.store.type === "sqlite" && isAbsolute(config.store.path)) {
    return (
      `Workspaces "${specs[0]?.name ?? ""}" and "${specs[1]?.name ?? ""}" would share the SQLite ` +
      `file ${config.store.path}: with several workspaces store.path must be relative (each ` +
      `workspace keeps its own file in its directory).`
    );
  }
  return undefined;
}

/** The card name of a workspace that sets none: the server's, then the workspace's. Pure. */
export const workspaceCardName = (serverName: string, workspace: string): string =>
  `${serverName} (${workspace})`;

/** Where a workspace's interfaces live: `<publicUrl>/agents/<name>`. Pure. */
export const workspaceUrl = (publicUrl: string, name: string): string =>
  `${publicUrl.replace(/\/+$/, "")}${WORKSPACES_PATH}/${name}`;

/**
 * The whole config one workspace runs with: the server's, with its overrides, its directory, its
 * card URLs under its prefix, its own process cap within the server's, and gRPC only for the
 * first workspace (the one the gRPC binding serves). Pure.
 */
export function workspaceConfig(base: Config, spec: WorkspaceSpec, first: boolean): Config {
  const { grpc } = base.server;
  return {
    ...base,
    workspaces: [],
    server: {
      ...base.server,
      publicUrl: workspaceUrl(base.server.publicUrl, spec.name),
      grpc: first ? grpc : { ...grpc, port: undefined },
    },
    agentCard: {
      ...base.agentCard,
      name: workspaceCardName(base.agentCard.name, spec.name),
      ...spec.agentCard,
    },
    claude: { ...base.claude, ...spec.claude, cwd: spec.cwd },
    sessions: {
      ...base.sessions,
      maxLive: Math.min(spec.maxLive ?? base.sessions.maxLive, base.sessions.maxLive),
    },
    peers: { ...base.peers, agents: workspacePeerAgents(base, spec) },
    triggers: spec.triggers ?? {},
    limits: withTriggerLimits(base.limits, spec.triggers ?? {}),
  };
}

/**
 * A workspace's peers (docs/peers.md): `peers.agents`, its own `peers.agents`, and the siblings
 * it lists, each reached on this server's own loopback address (so allowed private). Pure.
 */
export function workspacePeerAgents(
  base: Pick<Config, "server" | "peers">,
  spec: Pick<WorkspaceSpec, "peers">,
): Config["peers"]["agents"] {
  const { host, port } = base.server;
  const self = ["0.0.0.0", "::", "localhost"].includes(host) ? "127.0.0.1" : host;
  const origin = `http://${self.includes(":") ? `[${self}]` : self}:${port}`;
  const siblings = (spec.peers?.workspaces ?? []).map((name): [string, PeerConfig] => [
    name,
    {
      url: `${origin}${WORKSPACES_PATH}/${name}/.well-known/agent-card.json`,
      auth: siblingAuth(base.peers.workspaceAuth, base.server.publicUrl),
      allowPrivateNetwork: true,
      description: `The sibling workspace ${name} of this server.`,
    },
  ]);
  return { ...base.peers.agents, ...spec.peers?.agents, ...Object.fromEntries(siblings) };
}

/**
 * A sibling's auth: `peers.workspaceAuth`, its token allowed on `server.publicUrl` too, since
 * the sibling's card lists its interfaces there (the card is read on the loopback address).
 */
const siblingAuth = (auth: PeerConfig["auth"], publicUrl: string): PeerConfig["auth"] =>
  auth === "none" ? auth : { ...auth, origins: [...(auth.origins ?? []), publicUrl] };

/** Whether a caller (by kind and name) may call a workspace with these `callers`. Pure. */
export function workspaceAllows(
  callers: WorkspaceCallers | undefined,
  caller:
    | { readonly kind: "anonymous" }
    | { readonly kind: "login"; readonly login: string }
    | { readonly kind: "token"; readonly name: string }
    | { readonly kind: "oidc"; readonly subject: string }
    | { readonly kind: "trigger"; readonly name: string },
): boolean {
  if (callers === undefined) return true;
  switch (caller.kind) {
    case "anonymous":
      return false;
    case "login":
      return callers.logins?.includes(caller.login) ?? false;
    case "token":
      return callers.tokens?.includes(caller.name) ?? false;
    case "oidc":
      return callers.subjects?.includes(caller.subject) ?? false;
    // A trigger calls its own workspace's handler, never through the bindings' access check.
    case "trigger":
      return false;
  }
}
