import { dirname, isAbsolute, resolve } from "node:path";
import { within } from "../common/safe-files.js";

/**
 * What the server's PreToolUse guard decides of a file tool's or WebFetch's call under the
 * boundary (docs/sandbox.md, "Threat model"): the file tools run in the runtime's own process,
 * outside the OS sandbox, so their reach is decided here, by the server, and a call that would
 * cross the boundary is refused with a reason, never offered to the caller as a prompt. Pure: the
 * hook resolves real paths and asks.
 */

export type BoundaryOperation =
  "file-read" | "file-write" | "network-fetch" | "network-outbound" | "sandbox-exit";

/** Why a call was refused: the `kind` label of `claude_a2a_sandbox_denials_total`. */
export type RefusalKind =
  | "sandbox-exit"
  | "outside-roots"
  | "server-file"
  | "runtime-state"
  | "runtime-settings"
  | "git-metadata"
  | "other-caller"
  | "network";

export interface Refusal {
  readonly kind: RefusalKind;
  readonly operation: BoundaryOperation;
  /** The path or host refused (no content, no argument besides it). */
  readonly target: string;
  /** What Claude and the caller read: why, and that no prompt can change it. */
  readonly reason: string;
}

export interface ProtectedPath {
  readonly path: string;
  readonly kind: Exclude<RefusalKind, "outside-roots" | "network" | "sandbox-exit">;
  /** `write`: readable, never written; `all`: neither. */
  readonly access: "write" | "all";
}

export interface GuardContext {
  /** Where the conversation's file tools may read and write: its working directory and more. */
  readonly roots: readonly string[];
  /** The runtime's own session files (background output, plans): readable and writable. */
  readonly runtimeFiles: readonly string[];
  /** This caller's own folders inside a protected one (its inbox folder): as the roots allow. */
  readonly own?: readonly string[];
  /** Paths inside (or outside) the roots that stay out of reach. */
  readonly protected: readonly ProtectedPath[];
  /** Hosts WebFetch may reach: the sandbox's allowed domains (`*.example.com` wildcards). */
  readonly allowedDomains: readonly string[];
}

/** A target of a call: a path to read or write, or a URL to fetch. */
export type Target =
  | { readonly type: "path"; readonly path: string; readonly operation: "file-read" | "file-write" }
  | { readonly type: "url"; readonly url: string };

/** The tools the guard watches (the hook's matcher). */
export const GUARDED_TOOLS = [
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
] as const;
export const GUARD_MATCHER = GUARDED_TOOLS.join("|");

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The static folder of a glob pattern (`/etc/*.conf` → `/etc`), relative ones under `cwd`. */
function globRoot(pattern: string, cwd: string): string {
  const at = pattern.search(/[*?[{]/);
  const fixed = at === -1 ? pattern : dirname(pattern.slice(0, at + 1));
  return resolve(cwd, fixed === "" ? "." : fixed);
}

/** What a call of `toolName` with `input` would touch, absolute against `cwd`. Pure. */
export function targetsOf(toolName: string, input: Record<string, unknown>, cwd: string): Target[] {
  const at = (p: string | undefined, operation: "file-read" | "file-write"): Target[] =>
    p === undefined ? [] : [{ type: "path", path: resolve(cwd, p), operation }];
  switch (toolName) {
    case "Read":
      return at(str(input.file_path), "file-read");
    case "Write":
    case "Edit":
    case "MultiEdit":
      return at(str(input.file_path), "file-write");
    case "NotebookEdit":
      return at(str(input.notebook_path), "file-write");
    case "Glob": {
      const pattern = str(input.pattern);
      const root = at(str(input.path) ?? cwd, "file-read");
      return pattern !== undefined && isAbsolute(pattern)
        ? [...root, { type: "path", path: globRoot(pattern, cwd), operation: "file-read" }]
        : root;
    }
    case "Grep":
    case "LS":
      return at(str(input.path) ?? cwd, "file-read");
    case "WebFetch": {
      const url = str(input.url);
      return url === undefined ? [] : [{ type: "url", url }];
    }
    default:
      return [];
  }
}

const NO_PROMPT = "No permission prompt can allow it: the server's sandbox policy decides.";

/** Whether `real` (a real path) may be read or written under `ctx`; else why not. Pure. */
export function judgePath(
  real: string,
  operation: "file-read" | "file-write",
  ctx: GuardContext,
): Refusal | undefined {
  const verb = operation === "file-read" ? "reading" : "writing";
  // The runtime's own session files come first: its plans live in its (otherwise denied) state.
  if (ctx.runtimeFiles.some((root) => within(root, real))) return undefined;
  const own = (ctx.own ?? []).some((root) => within(root, real));
  for (const p of ctx.protected) {
    if (!within(p.path, real)) continue;
    if (own && p.kind === "other-caller") continue;
    if (p.access === "write" && operation === "file-read") continue;
    return {
      kind: p.kind,
      operation,
      target: real,
      reason: `Refused by claude-a2a: ${verb} ${real} is not allowed (${DESCRIBE[p.kind]}). ${NO_PROMPT}`,
    };
  }
  if (ctx.roots.some((root) => within(root, real))) return undefined;
  return {
    kind: "outside-roots",
    operation,
    target: real,
    reason:
      `Refused by claude-a2a: ${verb} ${real} is outside this conversation's working ` +
      `directory (${ctx.roots[0] ?? "none"}). ${NO_PROMPT}`,
  };
}

const DESCRIBE: Record<ProtectedPath["kind"], string> = {
  "server-file": "one of the server's own files",
  "runtime-state": "the Claude Code runtime's state: credentials and transcripts",
  "runtime-settings": "Claude Code settings that would run outside the sandbox",
  "git-metadata": "the repository's git metadata: only the server moves refs",
  "other-caller": "another caller's attachments",
};

/** Whether `host` matches an allowed domain (`*.example.com` matches below it only). Pure. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? h.endsWith(p.slice(1)) : h === p;
  });
}

/** Whether WebFetch may fetch `url` (in the runtime's process: the sandbox's proxy is not on its way). */
export function judgeFetch(url: string, ctx: GuardContext): Refusal | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    host = url;
  }
  if (hostAllowed(host, ctx.allowedDomains)) return undefined;
  return {
    kind: "network",
    operation: "network-fetch",
    target: host,
    reason:
      `Refused by claude-a2a: fetching from ${host} is not allowed: it is not one of the ` +
      `sandbox's allowed domains (claude.sandbox.network.allowedDomains). ${NO_PROMPT}`,
  };
}

/** The runtime's permission request for a host its sandbox's proxy does not allow. */
export const NETWORK_PROMPT_TOOL = "SandboxNetworkAccess";

/**
 * A permission request that would widen the sandbox if granted, refused by the server whoever
 * would answer: a command asking to run outside it (`dangerouslyDisableSandbox`), or a host the
 * sandbox does not allow. Under `"strict"` the runtime asks neither; a custom sandbox may. Pure.
 */
export function wideningRequest(
  toolName: string,
  input: Record<string, unknown>,
): Refusal | undefined {
  if (toolName === NETWORK_PROMPT_TOOL) {
    const host = str(input.host) ?? "a host";
    return {
      kind: "network",
      operation: "network-outbound",
      target: host,
      reason:
        `Refused by claude-a2a: ${host} is not one of the sandbox's allowed domains ` +
        `(claude.sandbox.network.allowedDomains). ${NO_PROMPT}`,
    };
  }
  if (toolName === "Bash" && input.dangerouslyDisableSandbox === true) {
    return {
      kind: "sandbox-exit",
      operation: "sandbox-exit",
      target: "Bash",
      reason: `Refused by claude-a2a: commands run inside the sandbox only. ${NO_PROMPT}`,
    };
  }
  return undefined;
}
