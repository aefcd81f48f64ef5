/**
 * What the Claude Code runtime has written to its transcripts under a config dir: a test that
 * kills a server to check what restart recovery reads from them first waits until the model call
 * it counts on is there (the runtime writes its transcript on its own schedule, so a permission
 * request can reach the server before the call that asked is on disk).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

async function jsonlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? jsonlFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith(".jsonl") ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

/** Whether a transcript under `configDir/projects` holds an assistant message (a model call). */
export async function transcriptHasModelCall(configDir: string): Promise<boolean> {
  for (const file of await jsonlFiles(join(configDir, "projects"))) {
    const text = await readFile(file, "utf8").catch(() => "");
    if (text.includes('"type":"assistant"')) return true;
  }
  return false;
}
