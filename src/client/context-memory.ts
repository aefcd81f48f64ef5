import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The last context used with each agent, in `<config dir>/contexts.json`. */
export interface ContextMemory {
  get(url: string): Promise<string | undefined>;
  set(url: string, contextId: string): Promise<void>;
  readonly file: string;
}

interface Stored {
  contexts: Record<string, string>;
}

/** The names of this machine's loopback: one server, however the URL spells it. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The key an agent's conversation is remembered under: its URL's origin, the loopback names
 * made one (`localhost`, `127.0.0.1` and `[::1]` reach the same server), the default port
 * dropped, and its path (a workspace's `/agents/<name>`) without a trailing slash. A URL that
 * does not parse is its own key. Pure.
 */
export function memoryKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const host = LOOPBACK.has(parsed.hostname) ? "localhost" : parsed.hostname;
  const port = parsed.port === "" ? "" : `:${parsed.port}`;
  const path = parsed.pathname.replace(/\/+$/, "");
  return `${parsed.protocol}//${host}${port}${path}`;
}

function parse(text: string): Stored {
  const value = JSON.parse(text) as unknown;
  if (typeof value !== "object" || value === null) return { contexts: {} };
  const contexts = (value as { contexts?: unknown }).contexts;
  if (typeof contexts !== "object" || contexts === null) return { contexts: {} };
  return {
    contexts: Object.fromEntries(
      Object.entries(contexts).filter((e): e is [string, string] => typeof e[1] === "string"),
    ),
  };
}

export function contextMemory(dir: string): ContextMemory {
  const file = join(dir, "contexts.json");
  const load = async (): Promise<Stored> => {
    try {
      return parse(await readFile(file, "utf8"));
    } catch {
      return { contexts: {} }; // missing or unreadable: start over, it is only a convenience
    }
  };
  return {
    file,
    async get(url) {
      const { contexts } = await load();
      // An entry written before keys were normalised is found under its URL as typed.
      return contexts[memoryKey(url)] ?? contexts[url];
    },
    async set(url, contextId) {
      const stored = await load();
      const key = memoryKey(url);
      if (stored.contexts[key] === contextId) return;
      stored.contexts[key] = contextId;
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, file);
    },
  };
}
