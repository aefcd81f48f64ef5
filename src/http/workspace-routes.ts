import express, { type IRouter, type RequestHandler } from "express";
import { WORKSPACES_PATH } from "../config/workspaces.js";
import type { Caller } from "../identity/caller.js";
import { mountA2a, type A2aRouteDeps, type A2aSurface } from "./a2a-routes.js";
import { callerOf } from "./caller.js";
import { mountHooks } from "./hooks-route.js";
import { mountTriggersAdmin } from "./triggers-admin-route.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/** One workspace as HTTP serves it, under `/agents/<name>/`. */
export interface WorkspaceSurface extends A2aSurface {
  readonly name: string;
  /** Its public URL (`<publicUrl>/agents/<name>`), what `GET /agents` lists. */
  readonly url: string;
  /** Whether this caller may call it (`workspaces.<name>.callers`). */
  allows(caller: Caller): boolean;
}

/** The answer to a caller the server lets in but a workspace's `callers` does not list. */
export const workspaceForbidden = (name: string): string =>
  `This caller may not call the workspace "${name}": its callers setting does not list it.`;

/** 403 unless the caller (the gate decided who) may call the workspace. */
function workspaceAccess(w: WorkspaceSurface): RequestHandler {
  return (req, res, next) => {
    if (w.allows(callerOf(req))) return next();
    res
      .status(HTTP_STATUS.FORBIDDEN)
      .json({ error: "forbidden", message: workspaceForbidden(w.name) });
  };
}

/** What `GET /agents` lists of a workspace. */
export interface WorkspaceListing {
  readonly name: string;
  /** What a client starts from (`createFromUrl`): with its trailing slash, which resolving the card's relative path needs. */
  readonly url: string;
  readonly agentCard: string;
}

/** The workspaces this caller may call, by name and URL (card, interfaces' base). Pure. */
export function workspaceListing(
  workspaces: readonly WorkspaceSurface[],
  caller: Caller,
): WorkspaceListing[] {
  return workspaces
    .filter((w) => w.allows(caller))
    .map((w) => ({
      name: w.name,
      url: `${w.url}/`,
      agentCard: `${w.url}/.well-known/agent-card.json`,
    }));
}

/**
 * Each workspace under `/agents/<name>/` (its card public, its bindings behind the gate and its
 * own access check), and `GET /agents`, behind the gate, listing those the caller may call.
 */
export function mountWorkspaces(
  app: IRouter,
  workspaces: readonly WorkspaceSurface[],
  deps: A2aRouteDeps,
): void {
  app.get(WORKSPACES_PATH, deps.gate, (req, res) => {
    res.json({ workspaces: workspaceListing(workspaces, callerOf(req)) });
  });
  for (const w of workspaces) {
    const router = express.Router();
    // Before the access check: a sender proves itself with the trigger's signature.
    if (w.hooks) mountHooks(router, w.hooks);
    if (w.triggersAdmin) {
      mountTriggersAdmin(router, w.triggersAdmin, [deps.gate, workspaceAccess(w)]);
    }
    mountA2a(router, w, deps, [workspaceAccess(w)]);
    app.use(`${WORKSPACES_PATH}/${w.name}`, router);
  }
}
