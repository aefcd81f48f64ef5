import { StartupError } from "../common/startup-error.js";
import type { Config } from "./schema.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * Refuses to expose an unauthenticated agent beyond loopback unless the operator says so. Only
 * bearer tokens (static or OpenID Connect) authenticate here: `allowedLogins` trusts headers that
 * only the local proxy may set, which proves nothing about a peer on another machine.
 */
export function checkBindSafety(server: Config["server"]): void {
  const unsafe = unsafeBind(server);
  if (unsafe === undefined) return;
  throw new StartupError(
    `Refusing to listen on ${unsafe.host} (${unsafe.key}) without authentication: anyone who ` +
      `can reach that address could drive Claude Code in your workspace. Either keep ` +
      `${unsafe.key} on 127.0.0.1 (and reach it through "tailscale serve", optionally with ` +
      `server.allowedLogins), or set server.auth.tokens (bearer tokens) or server.auth.oidc ` +
      `(OpenID Connect), or set ` +
      `server.allowUnauthenticatedRemote to true if a proxy in front authenticates every request.`,
  );
}

/** The first bind address (HTTP, then gRPC when on) that is unsafe for the auth configured. Pure. */
export function unsafeBind(server: Config["server"]): { key: string; host: string } | undefined {
  const bearer = server.auth.tokens.length > 0 || server.auth.oidc !== undefined;
  if (bearer || server.allowUnauthenticatedRemote) return undefined;
  const binds = [
    { key: "server.host", host: server.host },
    ...(server.grpc.port === undefined
      ? []
      : [{ key: "server.grpc.host", host: server.grpc.host }]),
  ];
  return binds.find((b) => !LOOPBACK.test(b.host));
}
