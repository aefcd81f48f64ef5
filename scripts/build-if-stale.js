#!/usr/bin/env node
// `npm start` runs this first: it builds dist/ only when a source is newer than the last build
// (the server's src/ and the web console's console/), or when the console was never built, so
// starting the server does not recompile every time. `--check` only says (exit 1 if stale).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const SOURCE = /\.(ts|html|css|json)$/;

/** The newest modification time (ms) among the sources the build reads. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (SOURCE.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** When the older of the two outputs was built: the server's CLI and the console's script. */
function builtAt() {
  const cli = mtime(join(root, "dist", "cli.js"));
  const console = mtime(join(root, "dist", "console", "app.js"));
  return cli === undefined || console === undefined ? undefined : Math.min(cli, console);
}

const sources = Math.max(
  newestSource(join(root, "src")),
  newestSource(join(root, "console")),
  statSync(join(root, "tsconfig.json")).mtimeMs,
  statSync(join(root, "tsconfig.build.json")).mtimeMs,
  statSync(join(root, "scripts", "build-console.js")).mtimeMs,
);
const built = builtAt();
const stale = built === undefined || sources > built;

if (process.argv.includes("--check")) {
  process.stderr.write(stale ? "dist/ is stale\n" : "dist/ is up to date\n");
  process.exit(stale ? 1 : 0);
}
if (stale) {
  process.stderr.write(
    built === undefined ? "building dist/\n" : "src/ changed: rebuilding dist/\n",
  );
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
