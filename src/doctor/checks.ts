import { constants } from "node:fs";
import { OFFLINE_HINT } from "./offline-hint.js";
import { access, mkdir, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { childConfigDir } from "../claude/index.js";
import type { Config } from "../config/schema.js";
import { workspaceConfig } from "../config/workspaces.js";
import { StaticTokenVerifier } from "../auth/static-tokens.js";
import { AuthConfigError } from "../auth/verifier.js";
import { StartupError } from "../common/startup-error.js";
import { checkBindSafety, unsafeBind } from "../config/bind-safety.js";
import { redactUrl } from "../store/database.js";
import { databaseSpec } from "../store/task-stores.js";
import type { CheckResult } from "./check-result.js";
import { checkControl } from "./control-check.js";
import { checkGrpc } from "./grpc-check.js";
import { checkIsolation } from "./isolation-check.js";
import { checkPorts } from "./port-check.js";
import { checkEveryPeer } from "./peers-check.js";
import { checkSandbox } from "./sandbox-check.js";
import { checkDeliveryForges, checkTriggerForges } from "./forge-check.js";
import { checkTriggers } from "./triggers-check.js";
import { checkOidc, checkSigning } from "./security-checks.js";
export type { CheckResult } from "./check-result.js";
export { checkGrpc } from "./grpc-check.js";

/** The report and the exit code (non-zero if anything is wrong). Pure. */
export function formatReport(results: readonly CheckResult[]): { text: string; code: number } {
  const lines = results.flatMap((r) =>
    r.ok
      ? [`ok    ${r.name}: ${r.detail}`, ...(r.warning ? [`warn  ${r.name}: ${r.warning}`] : [])]
      : [`FAIL  ${r.name}: ${r.detail}`, ...(r.fix ? [`      fix: ${r.fix}`] : [])],
  );
  const failed = results.filter((r) => !r.ok).length;
  lines.push(failed === 0 ? "Everything looks right." : `${failed} problem(s) found.`);
  return { text: `${lines.join("\n")}\n`, code: failed === 0 ? 0 : 1 };
}

const platformPackage = (platform: string, arch: string) =>
  `@anthropic-ai/claude-agent-sdk-${platform}-${arch}`;

/** The Claude Code runtime: the SDK's per-platform optional package (musl variant too). */
export function checkRuntime(
  resolve: (id: string) => string = createRequire(import.meta.url).resolve,
  platform: string = process.platform,
  arch: string = process.arch,
): CheckResult {
  const names = [platformPackage(platform, arch), `${platformPackage(platform, arch)}-musl`];
  for (const name of names) {
    try {
      return { name: "runtime", ok: true, detail: dirname(resolve(`${name}/package.json`)) };
    } catch {
      // Try the next.
    }
  }
  return {
    name: "runtime",
    ok: false,
    detail: `the Claude Code runtime (${names[0]}) is not installed`,
    fix: "reinstall without skipping optional dependencies (npm ci, never --omit=optional)",
  };
}

/** The workspace and its `.claude/` are writable (session map, store, inbox, pid file). */
export async function checkWorkspace(cwd: string): Promise<CheckResult> {
  const dir = join(cwd, ".claude");
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    return { name: "workspace", ok: true, detail: `${cwd} (writable)` };
  } catch (err) {
    return {
      name: "workspace",
      ok: false,
      detail: `${dir} is not writable: ${(err as Error).message}`,
      fix: `make ${dir} writable by this user, or serve another directory with --cwd`,
    };
  }
}

/** The store answers (read-only: nothing is created or migrated). */
export async function checkStore(config: Config): Promise<CheckResult> {
  const spec = databaseSpec(config.store, config.claude.cwd);
  if (spec === undefined) return { name: "store", ok: true, detail: "memory (lost at restart)" };
  if (spec.type === "sqlite") {
    const exists = await stat(spec.file).then(
      () => true,
      () => false,
    );
    try {
      if (exists) {
        const db = new BetterSqlite3(spec.file, { readonly: true, fileMustExist: true });
        try {
          db.prepare("select 1").get();
        } finally {
          db.close();
        }
      } else {
        await access(dirname(spec.file), constants.W_OK).catch(async () => {
          await mkdir(dirname(spec.file), { recursive: true });
        });
      }
      return {
        name: "store",
        ok: true,
        detail: `sqlite ${spec.file}${exists ? "" : " (created at first start)"}`,
      };
    } catch (err) {
      return {
        name: "store",
        ok: false,
        detail: `sqlite ${spec.file}: ${(err as Error).message}`,
        fix: "check the file's permissions and that no other program holds it, or set store.path",
      };
    }
  }
  const client = new pg.Client({ connectionString: spec.url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { name: "store", ok: true, detail: `postgres ${redactUrl(spec.url)}` };
  } catch (err) {
    return {
      name: "store",
      ok: false,
      detail: `postgres ${redactUrl(spec.url)}: ${(err as Error).message}`,
      fix: "check store.url (host, port, user, password, database) and that the server runs",
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const CREDENTIAL_VARS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
];

/** Whether Claude credentials look configured (an API key, a token, or a `claude` login). */
export async function checkCredentials(
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
): Promise<CheckResult> {
  const variable = CREDENTIAL_VARS.find((v) => (env[v] ?? "").trim() !== "");
  if (variable) return { name: "credentials", ok: true, detail: `${variable} is set` };
  const configDir = childConfigDir(env);
  const file = configDir && join(configDir, ".credentials.json");
  if (
    file &&
    (await stat(file).then(
      () => true,
      () => false,
    ))
  ) {
    return { name: "credentials", ok: true, detail: `claude login (${file})` };
  }
  if (platform === "darwin") {
    return {
      name: "credentials",
      ok: true,
      detail: "not checked: on macOS a `claude` login is kept in the keychain",
    };
  }
  return {
    name: "credentials",
    ok: false,
    detail: "no API key, token or claude login found",
    fix: `run \`claude\` once and log in, or set ANTHROPIC_API_KEY; ${OFFLINE_HINT}`,
  };
}

/** Who may call: the bind is safe for the authentication configured, and every token is readable. */
export function checkAccess(
  server: Config["server"],
  env: Record<string, string | undefined> = process.env,
): CheckResult {
  try {
    checkBindSafety(server);
    const tokens = StaticTokenVerifier.from(server.auth.tokens, env);
    const how = [
      ...(tokens.size > 0 ? [`${tokens.size} bearer token(s)`] : []),
      ...(server.auth.oidc ? [`OpenID Connect (${server.auth.oidc.issuer})`] : []),
      ...((server.allowedLogins?.length ?? 0) > 0
        ? [`allowedLogins via ${server.trustedProxies.join(", ")}`]
        : []),
      ...(server.allowUnauthenticatedRemote ? ["allowUnauthenticatedRemote"] : []),
      ...(server.operators.length > 0 ? [`operators: ${server.operators.join(", ")}`] : []),
    ];
    const detail = `${server.host}: ${how.length > 0 ? how.join("; ") : "no authentication (loopback only)"}`;
    return { name: "access", ok: true, detail };
  } catch (err) {
    if (err instanceof AuthConfigError) {
      return {
        name: "access",
        ok: false,
        detail: err.message,
        fix: "export that variable (the token itself) in the server's environment",
      };
    }
    if (err instanceof StartupError) {
      const { key, host } = unsafeBind(server) ?? { key: "server.host", host: server.host };
      return {
        name: "access",
        ok: false,
        detail: `${key} ${host} is not loopback and no authentication is configured`,
        fix: `keep ${key} on 127.0.0.1, or set server.auth.tokens or server.auth.oidc (see docs/security.md)`,
      };
    }
    throw err;
  }
}

/** Every check but the config's own (which `main` does first). */
export async function runChecks(config: Config, file?: string | null): Promise<CheckResult[]> {
  return [
    checkAccess(config.server),
    ...(await checkPorts(config.server)),
    ...(await checkOidc(config.server)),
    ...(await checkSigning(config)),
    await checkGrpc(config),
    checkRuntime(),
    ...(await directoryChecks(config, file)),
    ...(await checkEveryPeer(config)),
    await checkCredentials(),
  ];
}

const optional = (r: CheckResult | undefined): CheckResult[] => (r === undefined ? [] : [r]);

/** The served directory and its store; with `workspaces`, each workspace's, named after it. */
async function directoryChecks(
  config: Config,
  configFile: string | null | undefined,
): Promise<CheckResult[]> {
  if (config.workspaces.length === 0) {
    const isolation = await checkIsolation(config);
    return [
      await checkWorkspace(config.claude.cwd),
      await checkStore(config),
      ...(isolation ? [isolation] : []),
      await checkSandbox(config, { configFile }),
      checkControl(config),
      ...optional(checkTriggers(config, process.env)),
      ...(await checkTriggerForges(config.triggers, process.env)),
      ...(await checkDeliveryForges(config.claude.delivery, process.env)),
    ];
  }
  const results: CheckResult[] = [];
  for (const [i, spec] of config.workspaces.entries()) {
    const wsConfig = workspaceConfig(config, spec, i === 0);
    const isolation = await checkIsolation(wsConfig);
    const checks = [await checkWorkspace(spec.cwd), await checkStore(wsConfig)];
    const sandbox = await checkSandbox(wsConfig, { workspace: spec.name, configFile });
    const control = checkControl(wsConfig);
    const triggers = [
      ...optional(checkTriggers(wsConfig, process.env, spec.name)),
      ...(await checkTriggerForges(wsConfig.triggers, process.env)),
      ...(await checkDeliveryForges(wsConfig.claude.delivery, process.env)),
    ];
    for (const r of [...checks, ...(isolation ? [isolation] : []), sandbox, control, ...triggers]) {
      results.push({ ...r, name: `${r.name} ${spec.name}` });
    }
  }
  return results;
}
