import { existsSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { within } from "./safe-files.js";

/**
 * How a person runs this package's bin from where they stand, for the lines that tell them what
 * to type (`claude-a2a chat --url …`). The package is not on the npm registry yet, so
 * `npx claude-a2a` works only where npm finds the package locally: in its clone, or in a project
 * that has it as a dependency; anywhere else it asks the registry and fails (404), or worse,
 * runs whatever someone published under the name. So:
 * - `claude-a2a` when that bin is on PATH (a global install: `npm install -g <clone or tarball>`,
 *   which links the bin into `<prefix>/bin`), or the script lies where a global install puts it;
 * - `npx claude-a2a` when the current directory is inside the clone or the project that holds it;
 * - otherwise `node <script>`, which works from anywhere.
 */
export type Invocation = string;

/** What the decision reads, every path real (symlinks resolved). */
export interface InvocationFacts {
  /** The running script (`<pkg>/dist/cli.js`, or `<pkg>/src/cli.ts` under tsx). */
  readonly script: string;
  /** Where the person stands. */
  readonly cwd: string;
  /** The script the first `claude-a2a` on PATH runs, if there is one. */
  readonly onPath: string | undefined;
  /** Whether a file exists (a `package.json` above a `node_modules`). */
  readonly exists: (path: string) => boolean;
}

/** A path as a shell word: quoted when it holds anything but plain characters. Pure. */
const shellWord = (path: string): string =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;

/** The decision. Pure but for `exists`. */
export function invocationFrom(f: InvocationFacts): Invocation {
  if (f.onPath !== undefined && f.onPath === f.script) return "claude-a2a";
  // <pkg>/dist/cli.js: the package's folder is two levels up.
  const pkg = dirname(dirname(f.script));
  const modules = dirname(pkg);
  if (basename(modules) === "node_modules") {
    const project = dirname(modules);
    // A global install: `<prefix>/lib/node_modules/claude-a2a`, no package.json above; its bin
    // is on PATH wherever npm's prefix is.
    if (!f.exists(join(project, "package.json"))) return "claude-a2a";
    // A project's dependency: npx finds its bin from inside the project.
    if (within(project, f.cwd)) return "npx claude-a2a";
  } else if (within(pkg, f.cwd)) {
    return "npx claude-a2a"; // the clone, where npx runs the package's own bin
  }
  return `node ${shellWord(f.script)}`;
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The script the first `claude-a2a` on PATH runs (its symlinks resolved), if any. */
export function binOnPath(path: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const bin = join(dir, "claude-a2a");
    if (existsSync(bin)) return real(bin);
  }
  return undefined;
}

/** The invocation of the process running now (`process.argv[1]`), from the current directory. */
export function currentInvocation(argv1: string | undefined = process.argv[1]): Invocation {
  if (argv1 === undefined) return "npx claude-a2a";
  return invocationFrom({
    script: real(argv1),
    cwd: real(process.cwd()),
    onPath: binOnPath(),
    exists: existsSync,
  });
}
