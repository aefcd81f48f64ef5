import { describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { CONTROL_EXTENSION_URI } from "../../../../src/contract/control.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import { workspaceConfig } from "../../../../src/config/workspaces.js";

const controlParams = (input: ConfigInput) => {
  const config = resolveConfig(input, { file: "test.json", startDir: "/work" });
  const extensions = buildAgentCard(config, { version: "1" }).capabilities?.extensions ?? [];
  return extensions.find((e) => e.uri === CONTROL_EXTENSION_URI)?.params;
};

describe("agent card: which controls are on (server.control, claude.allowedPermissionModes)", () => {
  it.each<[string, ConfigInput, Record<string, unknown> | undefined]>([
    [
      "the defaults: steer, rewind, fork (no mode allowed)",
      {},
      { version: "1", controls: ["steer", "rewind", "fork"] },
    ],
    [
      "plan allowed",
      { claude: { allowedPermissionModes: ["plan"] } },
      { version: "1", controls: ["steer", "plan", "rewind", "fork"], permissionModes: ["plan"] },
    ],
    [
      "plan allowed, steering off",
      {
        server: { control: { steer: false, rewind: false } },
        claude: { allowedPermissionModes: ["plan"] },
      },
      { version: "1", controls: ["plan", "fork"], permissionModes: ["plan"] },
    ],
    [
      "plan listed but server.control.plan off: another mode still listed",
      {
        server: { control: { plan: false, rewind: false, fork: false } },
        claude: { allowedPermissionModes: ["plan", "default"] },
      },
      { version: "1", controls: ["steer"], permissionModes: ["default"] },
    ],
    [
      "everything off",
      { server: { control: { steer: false, plan: false, rewind: false, fork: false } } },
      undefined,
    ],
  ])("%s", (_name, input, params) => {
    expect(controlParams(input)).toEqual(params);
  });

  it("is per workspace: each workspace's own allowlist", () => {
    const config = resolveConfig(
      {
        workspaces: {
          planned: { cwd: "a", claude: { allowedPermissionModes: ["plan"] } },
          plain: { cwd: "b" },
        },
      },
      { file: "test.json", startDir: "/work" },
    );
    const controls = config.workspaces.map((spec, i) => {
      const ws = workspaceConfig(config, spec, i === 0);
      const extensions = buildAgentCard(ws, { version: "1" }).capabilities?.extensions ?? [];
      const params = extensions.find((e) => e.uri === CONTROL_EXTENSION_URI)?.params;
      return [spec.name, (params as { controls?: unknown } | undefined)?.controls];
    });
    expect(controls).toEqual([
      ["planned", ["steer", "plan", "rewind", "fork"]],
      ["plain", ["steer", "rewind", "fork"]],
    ]);
  });
});
