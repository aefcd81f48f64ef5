#!/usr/bin/env node
// `npm run build` runs this after tsc: it bundles the web console (console/app.ts and the official
// A2A client it uses) into one browser script and copies its page and stylesheet into
// dist/console/, which the server serves at /console. No CDN, no network: everything it needs is
// in these files.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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
for (const file of ["index.html", "console.css", "favicon.svg"]) copyFileSync(join(source, file), join(out, file));
