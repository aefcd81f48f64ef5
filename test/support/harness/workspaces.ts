/**
 * Two workspaces, `api` and `web`, in one server in this process: each its own A2A agent under
 * `/agents/<name>/`, working in its own directory of the sandbox (`twoWorkspaces`), on one
 * scripted model. What the workspaces' tests start; closed as one.
 */
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import type { RunningServer } from "../../../src/app/server.js";
import type { Config, ConfigInput } from "../../../src/config/schema.js";
import type { WorkspaceInput } from "../../../src/config/workspace-schema.js";
import { twoWorkspaces, type Workspaces } from "../a2a/workspaces.js";
import { startTestBench, type TestBench } from "../bench.js";
import type { Rule } from "./model.js";
import { closeServed, startServed } from "./served.js";

export interface TwoWorkspacesOptions {
  readonly rules?: readonly Rule[];
  /** The server's config but its workspaces. */
  readonly config?: Omit<ConfigInput, "workspaces">;
  /** More of `api`'s entry (e.g. its own callers). */
  readonly api?: Partial<WorkspaceInput>;
}

export interface TwoWorkspacesHarness {
  readonly bench: TestBench;
  readonly dirs: Workspaces;
  readonly config: Config;
  server: RunningServer;
  /** An official client of workspace `name`, from its card at its prefix alone. */
  client(name: keyof Workspaces): Promise<Client>;
  /** Stops the server and starts it again on the same config and directories. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startTwoWorkspaces(
  o: TwoWorkspacesOptions = {},
): Promise<TwoWorkspacesHarness> {
  const bench = await startTestBench(o.rules ?? []);
  try {
    const { dirs, config } = await twoWorkspaces(bench, o.config, o.api);
    const harness: TwoWorkspacesHarness = {
      bench,
      dirs,
      config,
      server: await startServed(bench, config),
      client: (name) => new ClientFactory().createFromUrl(`${harness.server.url}/agents/${name}/`),
      async restart() {
        await harness.server.close();
        harness.server = await startServed(bench, config);
      },
      close: () => closeServed(harness.server, bench),
    };
    return harness;
  } catch (err) {
    await bench.close();
    throw err;
  }
}
