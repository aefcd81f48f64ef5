import { controlsOn } from "../a2a/card/agent-card.js";
import type { Config } from "../config/schema.js";
import type { CheckResult } from "./check-result.js";

/**
 * Which controls of the control extension are on for a workspace (`server.control`, and its
 * `claude.allowedPermissionModes` for `plan`), as its card lists them.
 */
export function checkControl(config: {
  readonly server: Pick<Config["server"], "control">;
  readonly claude: Pick<Config["claude"], "allowedPermissionModes">;
}): CheckResult {
  const on = controlsOn(config.server, config.claude);
  return {
    name: "control",
    ok: true,
    detail:
      on.length === 0
        ? "off: the card lists no control extension (server.control)"
        : `control extension on: ${on.join(", ")} (a client activates it with its A2A-Extensions header)`,
  };
}
