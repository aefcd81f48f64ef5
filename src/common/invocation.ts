import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * How a person runs this package's bin from where it runs now, for the lines that tell them
 * what to type (`claude-a2a chat --url …`). A global install puts the package straight in the
 * global `node_modules` (`<prefix>/lib/node_modules/claude-a2a`), whose parent holds no
 * `package.json`, and its bin on PATH: plain `claude-a2a`. Anything else (a clone's
 * `dist/cli.js`, a project's dependency, npx's cache, which writes a `package.json` beside its
 * `node_modules`) has no bin on PATH: `npx claude-a2a`.
 */
export type Invocation = "claude-a2a" | "npx claude-a2a";

/** The decision, from the running script's real path. Pure but for `exists`. */
export function invocationOf(
  script: string,
  exists: (path: string) => boolean = existsSync,
): Invocation {
  // <pkg>/dist/cli.js: the package's folder is two levels up.
  const pkg = dirname(dirname(script));
  const modules = dirname(pkg);
  if (basename(modules) !== "node_modules") return "npx claude-a2a";
  return exists(join(dirname(modules), "package.json")) ? "npx claude-a2a" : "claude-a2a";
}

/** The invocation of the process running now (`process.argv[1]`, its symlinks resolved). */
export function currentInvocation(argv1: string | undefined = process.argv[1]): Invocation {
  if (argv1 === undefined) return "npx claude-a2a";
  let script = argv1;
  try {
    script = realpathSync(argv1);
  } catch {
    // Keep the path as given.
  }
  return invocationOf(script);
}
