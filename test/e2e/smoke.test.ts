/**
 * The README's smoke list, run in CI: the same scenarios as `npm run smoke`, against our server
 * started here, the real Claude Code runtime and the scripted model answering the smoke prompts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2AHarness, type A2AHarness } from "../support/a2a/harness.js";
import smokeRules from "../smoke/rules.js";
import {
  smokeCancel,
  smokeInput,
  smokeOverlap,
  smokePermission,
  smokeV1,
  type SmokeContext,
} from "../smoke/scenarios.js";

let h: A2AHarness;
// The permission scenario writes outside the server's cwd, as the README says: the sandbox root.
const ctx = (): SmokeContext => ({ client: h.client, smokeDir: h.bench.sandbox.root });

beforeAll(async () => {
  h = await startA2AHarness({ rules: smokeRules });
});
afterAll(async () => {
  expect(h.bench.model.unmatched).toEqual([]);
  await h.close();
});

describe("the README's smoke list, offline", () => {
  it("smoke:v1 — a plain single-turn task", () => smokeV1(ctx()));
  it("smoke:cancel — CancelTask on a running task", () => smokeCancel(ctx()));
  it("smoke:input — AskUserQuestion bridged to input-required, and the resume", () =>
    smokeInput(ctx()));
  it("smoke:overlap — a follow-up to a working task is refused; the running turn is untouched", () =>
    smokeOverlap(ctx()));
  it("smoke:permission — a structured deny beats a contradicting yes; oui, vas-y allows", () =>
    smokePermission(ctx()));
});
