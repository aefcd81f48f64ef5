import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { resolveConfig } from "../../../src/config/load.js";
import type { Config, ConfigInput } from "../../../src/config/schema.js";
import type { WorkspaceInput } from "../../../src/config/workspace-schema.js";
import { TEST_MODEL, type TestBench } from "../bench.js";
import { reply, text, toolUse, type Rule } from "../harness/model.js";
import { freePort } from "../harness/ports.js";
import { startServed } from "../harness/served.js";

/** What the workspaces' e2e tests share: two workspace directories and a server over them. */

export interface Workspaces {
  readonly api: string;
  readonly web: string;
}

/** Two workspace directories in the sandbox, and the server's config serving them. */
export async function twoWorkspaces(
  b: TestBench,
  input: Omit<ConfigInput, "workspaces"> = {},
  api: Partial<WorkspaceInput> = {},
): Promise<{ dirs: Workspaces; config: Config }> {
  const dirs = { api: join(b.sandbox.root, "api"), web: join(b.sandbox.root, "web") };
  await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
  const config = resolveConfig(
    {
      ...input,
      sessions: { spares: 0, ...input.sessions },
      claude: { model: TEST_MODEL, settingSources: [], permissionMode: "acceptEdits" },
      workspaces: {
        api: { agentCard: { name: "API agent" }, ...api, cwd: dirs.api },
        web: { cwd: dirs.web },
      },
    },
    {
      file: "<test config>",
      startDir: b.sandbox.root,
      overrides: { port: await freePort(), cwd: b.sandbox.cwd },
    },
  );
  return { dirs, config };
}

/** The server over `config` (unowned: the caller closes it; `served()` for a test's own). */
export const start = startServed;

/** Claude writes `note.txt` with `content` in `dir`, then says so. */
export const writeNote = (prompt: string, dir: string, content: string): Rule[] => [
  {
    match: { lastUserText: prompt, toolResult: false },
    reply: reply(toolUse("Write", { file_path: join(dir, "note.txt"), content })),
  },
  {
    match: { toolResult: join(dir, "note.txt") },
    reply: reply(text(`Wrote ${content}`)),
  },
];

export const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
