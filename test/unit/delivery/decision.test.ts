import { describe, expect, it } from "vitest";
import { deliverySchema } from "../../../src/config/delivery-schema.js";
import { CONTROL_EXTENSION_URI } from "../../../src/contract/control.js";
import { requestedDelivery, type DeliveryPolicy } from "../../../src/delivery/decision.js";

const config = deliverySchema.parse({
  checks: [
    { name: "test", command: "npm test" },
    { name: "lint", command: "npx eslint .", timeoutSeconds: 60 },
  ],
  allowedTargets: ["branch", "push", "merge"],
  maxRounds: 3,
  remote: { url: "https://git.example/app.git", tokenEnv: "PUSH_TOKEN" },
});
const WORKTREE: DeliveryPolicy = { isolation: "worktree", config };
const SHARED: DeliveryPolicy = { isolation: "shared", config };
const NONE: DeliveryPolicy = { isolation: "worktree", config: undefined };

const ask = (deliver: unknown, policy = WORKTREE, active = true) =>
  requestedDelivery({ deliver }, policy, active, CONTROL_EXTENSION_URI);

describe("what a message's metadata.deliver may ask (requestedDelivery)", () => {
  it.each([
    ["absent", undefined],
    ["null", null],
    ["false", false],
  ])("%s: no delivery, whatever the workspace", (_name, deliver) => {
    expect(ask(deliver, NONE, false)).toEqual({ ok: true, plan: undefined });
  });

  it.each([
    ["true: the workspace's defaults", true, ["test", "lint"], 3],
    ["a target's name", "branch", ["test", "lint"], 3],
    ["an object naming one check", { checks: ["lint"] }, ["lint"], 3],
    ["checks in the config's order", { checks: ["lint", "test"] }, ["test", "lint"], 3],
    ["fewer rounds", { maxRounds: 1 }, ["test", "lint"], 1],
    ["no fix round", { target: "branch", maxRounds: 0, review: true }, ["test", "lint"], 0],
  ])("%s", (_name, deliver, checks, rounds) => {
    const asked = ask(deliver);
    expect(asked.ok).toBe(true);
    if (!asked.ok) return;
    expect(asked.plan?.target).toBe("branch");
    expect(asked.plan?.checks.map((c) => c.name)).toEqual(checks);
    expect(asked.plan?.maxRounds).toBe(rounds);
    // The commands come from the config, whatever the message said.
    expect(asked.plan?.checks.map((c) => c.command)).toEqual(
      checks.map((n) => config.checks.find((c) => c.name === n)?.command),
    );
  });

  it("push, allowed: the plan's target", () => {
    const asked = ask({ target: "push", checks: ["test"] });
    expect(asked.ok && asked.plan?.target).toBe("push");
  });

  it("merge, allowed: admitted with the workspace's checks", () => {
    const asked = ask({ target: "merge", checks: ["test"] });
    expect(asked).toMatchObject({ ok: true, plan: { target: "merge", maxRounds: 3 } });
    expect(ask("merge", { isolation: "worktree", config: deliverySchema.parse({}) })).toEqual({
      ok: false,
      reason: expect.stringMatching(/merge is not allowed/) as unknown,
    });
  });

  it.each<[string, unknown, DeliveryPolicy, boolean, RegExp]>([
    ["without the control extension", true, WORKTREE, false, /needs the control extension/],
    ["without claude.delivery", true, NONE, true, /has no claude.delivery/],
    ["without worktree isolation", true, SHARED, true, /isolation "worktree"/],
    ["a number", 3, WORKTREE, true, /must be true, a target name, or an object/],
    ["an array", ["test"], WORKTREE, true, /must be true, a target name, or an object/],
    ["a command of the caller's", { command: "rm -rf /" }, WORKTREE, true, /no key "command"/],
    [
      "a check given as a command",
      { checks: [{ name: "x", command: "curl evil" }] },
      WORKTREE,
      true,
      /caller never supplies a command/,
    ],
    ["an unknown target", "ship-it", WORKTREE, true, /Unknown delivery target "ship-it"/],
    ["a target not allowed", "pull-request", WORKTREE, true, /not allowed in this workspace/],
    ["an unknown check", { checks: ["deploy"] }, WORKTREE, true, /Unknown check "deploy"/],
    ["more rounds than the config", { maxRounds: 4 }, WORKTREE, true, /from 0 to 3/],
    ["negative rounds", { maxRounds: -1 }, WORKTREE, true, /from 0 to 3/],
    ["fractional rounds", { maxRounds: 1.5 }, WORKTREE, true, /from 0 to 3/],
    ["review not a boolean", { review: "yes" }, WORKTREE, true, /review must be true or false/],
  ])("refuses %s", (_name, deliver, policy, active, reason) => {
    const asked = ask(deliver, policy, active);
    expect(asked.ok).toBe(false);
    if (!asked.ok) expect(asked.reason).toMatch(reason);
  });
});

describe("claude.delivery (the config)", () => {
  it("defaults: no checks, branch, 3 rounds, no review (blocking from major)", () => {
    expect(deliverySchema.parse({})).toEqual({
      checks: [],
      review: false,
      reviewBlocking: "major",
      target: "branch",
      allowedTargets: ["branch"],
      maxRounds: 3,
      approvedBy: "caller",
      merge: {},
    });
  });

  it.each([
    ["a target outside allowedTargets", { target: "push" }],
    [
      "two checks of one name",
      {
        checks: [
          { name: "t", command: "a" },
          { name: "t", command: "b" },
        ],
      },
    ],
    ["an unknown target", { allowedTargets: ["deploy"] }],
    ["a check without a command", { checks: [{ name: "t" }] }],
    ["a name with a space", { checks: [{ name: "unit tests", command: "npm test" }] }],
    ["too many rounds", { maxRounds: 50 }],
    ["an unknown approver", { approvedBy: "anyone" }],
    ["an unknown way to merge", { merge: { how: "squash" } }],
    ["a merge author without an email", { merge: { author: { name: "Ops" } } }],
    ["a base branch with a space", { baseBranch: "my branch" }],
  ])("refuses %s", (_name, value) => {
    expect(deliverySchema.safeParse(value).success).toBe(false);
  });

  const REMOTE = { url: "https://git.example/app.git", tokenEnv: "PUSH_TOKEN" };
  const FORGE = { kind: "github", repository: "octo/app", tokenEnv: "GH_TOKEN" };
  it.each([
    ["push without a remote", { allowedTargets: ["branch", "push"] }, "remote", '"push"'],
    [
      "a pull request without a remote",
      { allowedTargets: ["pull-request"], target: "pull-request", forge: FORGE },
      "remote",
      '"pull-request"',
    ],
    [
      "a pull request without a forge",
      { allowedTargets: ["branch", "pull-request"], remote: REMOTE },
      "forge",
      '"pull-request"',
    ],
  ])("refuses %s, naming the key", (_name, value, key, target) => {
    const parsed = deliverySchema.safeParse(value);
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues.find((i) => i.path[0] === key);
    expect(issue?.message).toContain(`claude.delivery.${key} is required`);
    expect(issue?.message).toContain(target);
  });

  it("takes a remote, a forge and a base branch for push and pull-request", () => {
    const parsed = deliverySchema.parse({
      allowedTargets: ["branch", "push", "pull-request"],
      remote: REMOTE,
      forge: FORGE,
      baseBranch: "develop",
    });
    expect(parsed).toMatchObject({ remote: REMOTE, forge: FORGE, baseBranch: "develop" });
    // A remote with its credentials in the URL is refused: the token comes from tokenEnv.
    const withUser = { ...REMOTE, url: "https://me:secret@git.example/app.git" };
    expect(
      deliverySchema.safeParse({ allowedTargets: ["push"], target: "push", remote: withUser })
        .success,
    ).toBe(false);
  });
});
