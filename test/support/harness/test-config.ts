import type { ConfigInput } from "../../../src/config/schema.js";
import { TEST_MODEL } from "../bench.js";

/**
 * The test defaults of every server's config, under what the test gives: the scripted model's
 * id, no settings of the machine, edits accepted, and no spare process unless the test is about
 * them (so the process counts stay what each test says).
 */
export function testConfig(extra: ConfigInput = {}): ConfigInput {
  return {
    ...extra,
    server: { ...extra.server },
    sessions: { spares: 0, ...extra.sessions },
    claude: {
      model: TEST_MODEL,
      settingSources: [],
      permissionMode: "acceptEdits",
      ...extra.claude,
    },
  };
}
