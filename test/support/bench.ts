import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { FakeModel } from "./harness/model.js";
import type { Rule } from "./harness/model.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./sandbox.js";

/** The model id every test uses: passed through unchanged by the runtime. */
export const TEST_MODEL = "claude-sonnet-4-5";

/** A scripted model plus an isolated runtime sandbox: everything one e2e test needs. */
export interface TestBench {
  readonly model: FakeModel;
  readonly sandbox: RuntimeSandbox;
  /** `query()` options that run the real runtime in the sandbox against the scripted model. */
  queryOptions(extra?: Partial<Options>): Options;
  /** Runtime stderr collected so far; printed by a failing test for diagnosis. */
  readonly stderr: string[];
  close(): Promise<void>;
}

export async function startTestBench(rules: readonly Rule[] = []): Promise<TestBench> {
  const model = await FakeModel.start({ rules });
  const sandbox = await createRuntimeSandbox({ modelUrl: model.url });
  const stderr: string[] = [];
  return {
    model,
    sandbox,
    stderr,
    queryOptions: (extra = {}) => ({
      cwd: sandbox.cwd,
      env: sandbox.env,
      model: TEST_MODEL,
      permissionMode: "acceptEdits",
      // Isolation: no user/project settings of the machine running the tests.
      settingSources: [],
      stderr: (data: string) => stderr.push(data),
      ...extra,
    }),
    async close() {
      await model.close();
      await sandbox.cleanup();
    },
  };
}
