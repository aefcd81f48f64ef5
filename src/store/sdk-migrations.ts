import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The `run` function of the SDK's `a2a-db` command (dist/cli/run.js). */
type A2aDbRun = (
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: { log(...args: unknown[]): void; error(...args: unknown[]): void },
) => Promise<number>;

/**
 * Brings a database up to the SDK's latest schema for the task and push-notification stores: the
 * same migrations, ledger and lock as `npx a2a-db upgrade --url <url>`. The SDK exports its
 * migrations only through that command, so its module is loaded from the installed package.
 * Safe to run at every start (already applied migrations are skipped).
 */
export async function migrateToLatest(url: string): Promise<void> {
  const run = await loadRun();
  const errors: string[] = [];
  const output = {
    log: () => undefined,
    error: (...args: unknown[]) => errors.push(args.map(String).join(" ")),
  };
  const code = await run(["upgrade", "--url", url], {}, output);
  if (code !== 0) {
    throw new Error(`database migration failed: ${errors.join("; ") || `exit code ${code}`}`);
  }
}

async function loadRun(): Promise<A2aDbRun> {
  const require = createRequire(import.meta.url);
  // The package's main entry is dist/index.js; the command lives beside it in dist/cli/.
  const main = require.resolve("@a2a-js/sdk");
  const file = join(dirname(main), "cli", "run.js");
  let module: { run?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as { run?: unknown };
  } catch (cause) {
    throw new Error(`cannot load the @a2a-js/sdk migrations from ${file}`, { cause });
  }
  if (typeof module.run !== "function") {
    throw new Error(`${file} exports no run(): has @a2a-js/sdk changed its a2a-db command?`);
  }
  return module.run as A2aDbRun;
}
