import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The last context used with each agent URL, in `<config dir>/contexts.json`. */
export interface ContextMemory {
  get(url: string): Promise<string | undefined>;
  set(url: string, contextId: string): Promise<void>;
  readonly file: string;
}

interface Stored {
  contexts: Record<string, string>;
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
      return (await load()).contexts[url];
    },
    async set(url, contextId) {
      const stored = await load();
      if (stored.contexts[url] === contextId) return;
      stored.contexts[url] = contextId;
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, file);
    },
  };
}
