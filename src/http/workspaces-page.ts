import type { IRouter, RequestHandler } from "express";
import { WORKSPACES_PATH } from "../config/workspaces.js";
import { callerOf } from "./caller.js";
import { CONSOLE_PATH } from "./console-route.js";
import {
  workspaceListing,
  type WorkspaceListing,
  type WorkspaceSurface,
} from "./workspace-routes.js";

/**
 * With workspaces, nothing is served at the root: `/` and `/console/` answer with the list of the
 * workspaces this caller may call, each with its console's link (a small HTML page, or JSON for
 * `Accept: application/json`), behind the same gate as `GET /agents`. And `/agents/<name>` (no
 * trailing slash) redirects to `/agents/<name>/`, where a client resolves the card.
 */

/** A workspace as the root page lists it: `GET /agents`'s entry and its console's URL. */
export interface RootListing extends WorkspaceListing {
  readonly console: string;
}

export const rootListing = (listing: readonly WorkspaceListing[]): RootListing[] =>
  listing.map((w) => ({ ...w, console: `${w.url}console/` }));

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The root page: one link per workspace to its console (same-origin paths). Pure. */
export function workspacesPage(listing: readonly RootListing[]): string {
  const items =
    listing.length === 0
      ? "<p>This caller may call none of this server's workspaces.</p>"
      : `<ul>\n${listing
          .map((w) => {
            const path = `${WORKSPACES_PATH}/${encodeURIComponent(w.name)}`;
            return `<li><a href="${escapeHtml(`${path}${CONSOLE_PATH}/`)}">${escapeHtml(w.name)}</a>: the console of <code>${escapeHtml(w.url)}</code> (talk to it with <code>claude-a2a chat --url ${escapeHtml(w.url)}</code>)</li>`;
          })
          .join("\n")}\n</ul>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>claude-a2a: workspaces</title></head>
<body>
<h1>claude-a2a: workspaces</h1>
<p>This server serves several workspaces, each an agent of its own under <code>${WORKSPACES_PATH}/&lt;name&gt;/</code>. Open one's console:</p>
${items}
</body>
</html>
`;
}

/** The page holds no script and loads nothing. */
const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function mountWorkspacesPage(
  app: IRouter,
  workspaces: readonly WorkspaceSurface[],
  gate: RequestHandler,
): void {
  app.get(["/", CONSOLE_PATH, `${CONSOLE_PATH}/`], gate, (req, res) => {
    const listing = rootListing(workspaceListing(workspaces, callerOf(req)));
    res.setHeader("Vary", "Accept");
    res.format({
      "text/html": () => {
        res.setHeader("Content-Security-Policy", PAGE_CSP);
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.type("html").send(workspacesPage(listing));
      },
      "application/json": () => res.json({ workspaces: listing }),
      default: () => res.json({ workspaces: listing }),
    });
  });
  for (const w of workspaces) {
    const bare = `${WORKSPACES_PATH}/${w.name}`;
    app.get(bare, (req, res, next) => {
      // Express matches `/agents/a/` here too (non-strict routing): only the bare path moves.
      const [path = "", query] = req.originalUrl.split("?", 2);
      if (path !== bare) return next();
      res.redirect(301, `${bare}/${query === undefined ? "" : `?${query}`}`);
    });
  }
}
