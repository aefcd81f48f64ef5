import type { DeliveryConfig } from "../config/delivery-schema.js";
import type { ForgeConfig, RemoteConfig } from "../config/forge-schema.js";
import { triggersOfKind, type TriggersConfig } from "../config/triggers-schema.js";
import { reachRemote } from "../delivery/push/reach-remote.js";
import type { FetchLike } from "../forge/http.js";
import { openForge } from "../forge/open.js";
import type { CheckResult } from "./check-result.js";

/**
 * The forges and remotes the server calls with its own tokens (docs/forges.md): the token's
 * variable is set, and the forge's API (GitHub `GET /repos/{o}/{r}`, GitLab `GET /projects/{id}`)
 * or the remote (`git ls-remote`) answers with it. One line each; never the token.
 */

export async function checkForge(
  name: string,
  forge: ForgeConfig,
  env: Readonly<Record<string, string | undefined>>,
  fetchImpl?: FetchLike,
): Promise<CheckResult> {
  const opened = openForge(forge, env, fetchImpl);
  if (!opened.ok) {
    return {
      name,
      ok: false,
      detail: `${forge.kind} ${forge.repository}: ${opened.reason}`,
      fix: `set ${forge.tokenEnv} in the server's environment (docs/forges.md)`,
    };
  }
  try {
    await opened.forge.reach();
  } catch (err) {
    return {
      name,
      ok: false,
      detail: (err as Error).message,
      fix: "check the token, its permissions and baseUrl (docs/forges.md)",
    };
  }
  return {
    name,
    ok: true,
    detail: `${forge.kind} ${forge.repository} reachable with ${forge.tokenEnv}`,
  };
}

export async function checkRemote(
  name: string,
  remote: RemoteConfig,
  env: Readonly<Record<string, string | undefined>>,
): Promise<CheckResult> {
  const reached = await reachRemote(remote, env);
  if (reached.ok) {
    return { name, ok: true, detail: `${remote.url} reachable with ${remote.tokenEnv}` };
  }
  return {
    name,
    ok: false,
    detail: `${remote.url}: ${reached.message}`,
    fix:
      reached.failure === "config"
        ? `set ${remote.tokenEnv} in the server's environment (docs/forges.md)`
        : "check the URL, the token and its permissions (docs/forges.md)",
  };
}

/** Each trigger's result forge, as `forge <trigger>` lines; none without result comments. */
export async function checkTriggerForges(
  triggers: TriggersConfig,
  env: Readonly<Record<string, string | undefined>>,
  fetchImpl?: FetchLike,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [trigger, t] of triggersOfKind(triggers, "webhook")) {
    if (t.result?.comment !== true) continue;
    results.push(
      await checkForge(`forge triggers.${trigger}.result`, t.result.forge, env, fetchImpl),
    );
  }
  return results;
}

/**
 * A delivery's remote and forge (`claude.delivery.remote`, `.forge`): `remote claude.delivery`
 * (git ls-remote with the token) and `forge claude.delivery` lines; none when unset.
 */
export async function checkDeliveryForges(
  delivery: DeliveryConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  fetchImpl?: FetchLike,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  if (delivery?.remote !== undefined) {
    results.push(await checkRemote("remote claude.delivery", delivery.remote, env));
  }
  if (delivery?.forge !== undefined) {
    results.push(await checkForge("forge claude.delivery", delivery.forge, env, fetchImpl));
  }
  return results;
}
