import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import {
  modeAfterPlan,
  requestedPermissionMode,
  type PermissionModePolicy,
} from "../../../../src/a2a/control/permission-mode.js";
import { CONTROL_EXTENSION_URI } from "../../../../src/contract/control.js";
import { PLAN_TEXT } from "../../../../src/contract/plan.js";

/** The allowlist, under an acceptEdits workspace unless another is named. */
const policy = (
  allowed: readonly PermissionMode[],
  workspace: PermissionMode = "acceptEdits",
): PermissionModePolicy => ({ workspace, allowed });
const ok = (mode?: PermissionMode) => ({ ok: true, mode }) as const;
const refused = (reason: string) => ({ ok: false, reason }) as const;

describe("a new task's metadata.permissionMode (pure)", () => {
  const rows: [
    string,
    unknown,
    PermissionModePolicy,
    boolean,
    ReturnType<typeof requestedPermissionMode>,
  ][] = [
    ["absent", undefined, policy([]), false, ok()],
    ["null", null, policy(["plan"]), true, ok()],
    ["plan, allowed", "plan", policy(["plan"]), true, ok("plan")],
    ["plan under a default workspace", "plan", policy(["plan"], "default"), true, ok("plan")],
    ["narrower, allowed", "default", policy(["plan", "default"]), true, ok("default")],
    [
      "the workspace's own, allowed",
      "acceptEdits",
      policy(["acceptEdits"]),
      true,
      ok("acceptEdits"),
    ],
    [
      "without the extension",
      "plan",
      policy(["plan"]),
      false,
      refused(PLAN_TEXT.needsExtension(CONTROL_EXTENSION_URI)),
    ],
    [
      "not in the allowlist",
      "default",
      policy(["plan"]),
      true,
      refused(PLAN_TEXT.notAllowed("default", ["plan"])),
    ],
    ["an empty allowlist", "plan", policy([]), true, refused(PLAN_TEXT.notAllowed("plan", []))],
    [
      "not a mode",
      "sideways",
      policy(["plan"]),
      true,
      refused(PLAN_TEXT.notAllowed("sideways", ["plan"])),
    ],
    ["not a string", 42, policy(["plan"]), true, refused(PLAN_TEXT.notAllowed(42, ["plan"]))],
    [
      "listed but wider than the workspace's",
      "bypassPermissions",
      policy(["plan", "bypassPermissions"]),
      true,
      refused(PLAN_TEXT.wider("bypassPermissions", "acceptEdits")),
    ],
    [
      "acceptEdits under a default workspace",
      "acceptEdits",
      policy(["acceptEdits"], "default"),
      true,
      refused(PLAN_TEXT.wider("acceptEdits", "default")),
    ],
    [
      "default under a dontAsk workspace",
      "default",
      policy(["default"], "dontAsk"),
      true,
      refused(PLAN_TEXT.wider("default", "dontAsk")),
    ],
  ];
  it.each(rows)("%s: %j", (_name, asked, p, active, expected) => {
    expect(requestedPermissionMode({ permissionMode: asked }, p, active)).toEqual(expected);
  });

  it("names the key, the allowlist and the workspace's mode in its refusals", () => {
    expect(PLAN_TEXT.notAllowed("default", ["plan"])).toBe(
      'metadata.permissionMode "default" is not allowed on this server (claude.allowedPermissionModes); allowed: "plan".',
    );
    expect(PLAN_TEXT.wider("auto", "default")).toBe(
      `metadata.permissionMode "auto" is wider than this workspace's permission mode ("default"): a task may narrow it, never widen it.`,
    );
  });
});

describe("the mode an approved plan is carried out in (pure)", () => {
  it.each([
    ["plan", "acceptEdits", "acceptEdits"],
    [undefined, "default", "default"],
    ["default", "acceptEdits", "default"],
  ] as const)("task %s, workspace %s: %s", (task, workspace, expected) => {
    expect(modeAfterPlan(task, workspace)).toBe(expected);
  });
});
