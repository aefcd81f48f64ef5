import { controlsOn } from "../a2a/card/agent-card.js";
import type { Config } from "../config/schema.js";
import type { CheckResult } from "./check-result.js";

/** Which controls of the control extension are on (`server.control`), as the card lists them. */
export function checkControl(server: Pick<Config["server"], "control">): CheckResult {
  const on = controlsOn(server);
  return {
    name: "control",
    ok: true,
    detail:
      on.length === 0
        ? "off: the card lists no control extension (server.control)"
        : `control extension on: ${on.join(", ")} (a client activates it with its A2A-Extensions header)`,
  };
}
