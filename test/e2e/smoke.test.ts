/**
 * docs/testing.md's smoke list, run in CI: the same scenarios as `npm run smoke`, against our server
 * started here, the real Claude Code runtime and the scripted model answering the smoke prompts.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startA2AHarness, type A2AHarness } from "../support/harness/index.js";
import smokeRules from "../smoke/rules.js";
import { defineSmokeTests, type SmokeContext } from "../smoke/scenarios.js";

let h: A2AHarness;
// The permission scenario writes outside the server's cwd, as docs/testing.md says: the sandbox root.
const ctx = (): SmokeContext => ({ client: h.client, smokeDir: h.bench.sandbox.root });

beforeAll(async () => {
  h = await startA2AHarness({ rules: smokeRules });
});
afterAll(async () => {
  expect(h.bench.model.unmatched).toEqual([]);
  await h.close();
});

describe("the docs' smoke list, offline", () => {
  defineSmokeTests(ctx);
});
