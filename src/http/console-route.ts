import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import express, { type Router } from "express";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/** Where the web console is served. docs/console.md "The web console". */
export const CONSOLE_PATH = "/console";

/**
 * `dist/console/`, built by `npm run build` (scripts/build-console.js): the same path from the
 * compiled `dist/http/` and from `src/http/` under tsx, since both sit one level below the root.
 */
export const CONSOLE_DIR = fileURLToPath(new URL("../../dist/console/", import.meta.url));

/**
 * What a console page may load and reach: its own origin only. The browser itself then refuses
 * any third-party request, and nothing from a task can run as script (the page sets text only).
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The console's static files. They are public, like the agent card: they hold no data, and a
 * browser cannot send a bearer token when it opens a page. Everything the page shows comes from
 * the A2A binding, behind the same gate as any other client (the page asks for a token on a 401).
 */
export function consoleRouter(dir: string = CONSOLE_DIR): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", CSP);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.setHeader("Cache-Control", "no-cache");
    next();
  });
  router.use(express.static(dir, { index: "index.html", redirect: true, fallthrough: true }));
  router.use((req, res) => {
    const built = existsSync(`${dir}/index.html`);
    res
      .status(HTTP_STATUS.NOT_FOUND)
      .type("text/plain")
      .send(
        built
          ? `No console file ${req.path}`
          : "The web console is not built: run `npm run build` (npm start builds it when it is missing).",
      );
  });
  return router;
}
