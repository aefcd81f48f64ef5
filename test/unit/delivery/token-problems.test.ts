import { describe, expect, it } from "vitest";
import { deliverySchema } from "../../../src/config/delivery-schema.js";
import { deliveryTokenProblems } from "../../../src/delivery/token-problems.js";

const remote = { url: "https://git.example/app.git", tokenEnv: "PUSH_T" };
const forge = { kind: "github", repository: "o/r", tokenEnv: "FORGE_T" };
const delivery = (targets: string[], target = "branch") =>
  deliverySchema.parse({ allowedTargets: targets, target, remote, forge });

describe("deliveryTokenProblems", () => {
  it.each([
    { name: "no delivery", d: undefined, env: {}, want: [] },
    { name: "branch only: no token needed", d: delivery(["branch"]), env: {}, want: [] },
    { name: "merge: local, no token", d: delivery(["branch", "merge"]), env: {}, want: [] },
    { name: "push, token set", d: delivery(["branch", "push"]), env: { PUSH_T: "x" }, want: [] },
    {
      name: "push, token unset",
      d: delivery(["branch", "push"]),
      env: {},
      want: [
        'claude.delivery.remote.tokenEnv: the environment variable PUSH_T is not set, and "push" deliveries need it: set it in the server\'s environment (docs/forges.md).',
      ],
    },
    {
      name: "push as the default target, token empty",
      d: delivery(["push"], "push"),
      env: { PUSH_T: "" },
      want: [expect.stringContaining("PUSH_T is not set")],
    },
    {
      name: "pull-request: both tokens",
      d: delivery(["branch", "pull-request"]),
      env: {},
      want: [
        expect.stringContaining('PUSH_T is not set, and "pull-request" deliveries'),
        expect.stringMatching(/^claude\.delivery\.forge\.tokenEnv: .*FORGE_T is not set/),
      ],
    },
    {
      name: "pull-request: the forge's missing",
      d: delivery(["push", "pull-request"], "push"),
      env: { PUSH_T: "x" },
      want: [expect.stringContaining('FORGE_T is not set, and "pull-request" deliveries')],
    },
  ])("$name", ({ d, env, want }) => {
    expect(deliveryTokenProblems(d, env)).toEqual(want);
  });

  it("names a workspace's key", () => {
    expect(
      deliveryTokenProblems(delivery(["push"], "push"), {}, "workspaces.api.claude.delivery"),
    ).toEqual([expect.stringMatching(/^workspaces\.api\.claude\.delivery\.remote\.tokenEnv: /)]);
  });
});
