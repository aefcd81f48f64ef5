import type { Config } from "../config/schema.js";
import { StartupError } from "../common/startup-error.js";
import {
  scriptedConfig,
  scriptedRefusal,
  type ScriptedRuntime,
  type StartScripted,
} from "./scripted-config.js";

/**
 * `--scripted <rules.json>`: the config made safe for the scripted model, and the model started
 * on the file's rules. A bad file (or a config it cannot serve) is a `StartupError`: nothing
 * started.
 */
export async function openScripted(
  rulesFile: string,
  config: Config,
  start: StartScripted | undefined,
): Promise<{ config: Config; scripted: ScriptedRuntime }> {
  const refusal = scriptedRefusal(config);
  if (refusal !== undefined) throw new StartupError(refusal);
  if (start === undefined) throw new StartupError("--scripted: not available here");
  try {
    return { config: scriptedConfig(config), scripted: await start(rulesFile) };
  } catch (err) {
    throw new StartupError(`--scripted: ${(err as Error).message}`);
  }
}
