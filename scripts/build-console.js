#!/usr/bin/env node
// `npm run build` runs this after tsc: it bundles the web console (console/app.ts and the official
// A2A client it uses) into one browser script and copies its page and stylesheet into
// dist/console/, which the server serves at /console. No CDN, no network: everything it needs is
// in these files.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { gzipSync } from "node:zlib";
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

// The page's budget: the script a browser loads first (minified, the A2A client included). It was
// 256 KiB for a hand-written Markdown renderer; the well-kept libraries the console uses instead
// (issue 37: markdown-it with its HTML-entity table and linkify, ~100 KiB; DOMPurify, ~31 KiB;
// highlight.js's core with fifteen grammars, ~56 KiB) raised the script to ~370 KiB (~115 KiB
// gzipped, as a compressing proxy sends it). Another grammar is ~1-7 KiB: the rest of the
// budget's headroom.
const BUDGET_KIB = 400;
const script = readFileSync(join(out, "app.js"));
const kib = script.length / 1024;
const gzipKib = gzipSync(script).length / 1024;
if (process.env.CONSOLE_BUILD_QUIET !== "1")
  process.stderr.write(
    `console: app.js ${kib.toFixed(1)} KiB, ${gzipKib.toFixed(1)} KiB gzipped (budget ${BUDGET_KIB} KiB)\n`,
  );
if (kib > BUDGET_KIB) {
  process.stderr.write(`console: app.js is over its budget of ${BUDGET_KIB} KiB\n`);
  process.exit(1);
}
