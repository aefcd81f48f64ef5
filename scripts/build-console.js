#!/usr/bin/env node
// `npm run build` runs this after tsc: it bundles the web console (console/app.ts and the official
// A2A client it uses) into one browser script and copies its page and stylesheet into
// dist/console/, which the server serves at /console. No CDN, no network: everything it needs is
// in these files.
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "console");
const out = join(root, "dist", "console");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(source, "app.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});
for (const file of ["index.html", "console.css", "favicon.svg"])
  copyFileSync(join(source, file), join(out, file));

// The page's budget: the script a browser loads first (minified, the A2A client included).
const BUDGET_KIB = 256;
const kib = statSync(join(out, "app.js")).size / 1024;
if (process.env.CONSOLE_BUILD_QUIET !== "1")
  process.stderr.write(`console: app.js ${kib.toFixed(1)} KiB (budget ${BUDGET_KIB} KiB)\n`);
if (kib > BUDGET_KIB) {
  process.stderr.write(`console: app.js is over its budget of ${BUDGET_KIB} KiB\n`);
  process.exit(1);
}
