/** The gRPC tests' pieces: a stub request handler, a server on 127.0.0.1:0 and a raw client. */
import { createHash } from "node:crypto";
import { afterEach } from "vitest";
import {
  type AgentCard,
  type GetTaskRequest,
  type Message,
  type SendMessageRequest,
  type Task,
} from "@a2a-js/sdk";
import { TaskNotFoundError } from "@a2a-js/sdk/errors";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { REFUSAL_STATE_KEY } from "../../../src/contract/limits.js";
import type { CallerLimitError } from "../../../src/a2a/handler/limit-error.js";
import { resolveConfig } from "../../../src/config/load.js";
import type { JWK } from "jose";
import { Authenticator } from "../../../src/auth/decide.js";
import { OidcVerifier } from "../../../src/auth/oidc.js";
import { StaticTokenVerifier } from "../../../src/auth/static-tokens.js";
import { CombinedVerifier } from "../../../src/auth/verifier.js";
import type { Tracing } from "../../../src/tracing/tracing.js";
import { AUDIENCE, ISSUER } from "../../support/oidc.js";
import { startGrpcServer, type RunningGrpcServer } from "../../../src/grpc/server.js";
import type { TlsMaterial } from "../../../src/grpc/tls.js";
import { captureLogs, rawGrpcClient } from "../../support/grpc.js";
import { okReply, UnsupportedHandler, workingTask } from "../http/support/stub-handler.js";

export {
  GET_TASK,
  getTaskBytes,
  rawGrpcClient as rawClient,
  SEND_MESSAGE,
} from "../../support/grpc.js";

export const TOKEN = "grpc-test-token-0123";
export const sha256 = (t: string) => createHash("sha256").update(t).digest("hex");

/** The card with a GRPC interface (the SDK refuses a version the card does not list for GRPC). */
export const card: AgentCard = buildAgentCard(
  resolveConfig({ server: { grpc: { port: 50051 } } }, { file: "test.json", startDir: "/work" }),
  { version: "0.0.0" },
);

/** Records what reaches it; GetTask answers a working task, or fails as `failWith` says. */
export class StubHandler extends UnsupportedHandler {
  readonly calls: { method: string; context: ServerCallContext; params: unknown }[] = [];
  failWith: Error | undefined;
  /** Refuses GetTask as the guarded handler refuses by a per-caller limit (state marked). */
  refuseWith: CallerLimitError | undefined;
  override getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(card);
  }
  override getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    this.calls.push({ method: "getTask", context, params });
    if (this.failWith) return Promise.reject(this.failWith);
    if (this.refuseWith) {
      context.state.set(REFUSAL_STATE_KEY, this.refuseWith.info);
      return Promise.reject(this.refuseWith);
    }
    if (params.id === "unknown")
      return Promise.reject(new TaskNotFoundError(`Task not found: ${params.id}`));
    const task = workingTask(params.id);
    // A timestamp the protobuf encoder takes (the HTTP stub's empty one does not encode).
    return Promise.resolve({
      ...task,
      status: { ...task.status, timestamp: new Date(0).toISOString() },
    } as Task);
  }
  override sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message> {
    this.calls.push({ method: "sendMessage", context, params });
    return Promise.resolve(okReply());
  }
}

export interface StubServer {
  readonly server: RunningGrpcServer;
  readonly handler: StubHandler;
  readonly logs: Record<string, unknown>[];
  /** Resolves once a line with this `msg` has been logged `n` times. */
  logged(msg: string, n?: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** The one authenticator the server builds, as src/auth/ makes it: static tokens, OIDC, logins. */
function testAuthenticator(o: {
  tokens?: boolean;
  oidcKeys?: JWK[];
  allowedLogins?: string[];
}): Authenticator {
  const tokens = StaticTokenVerifier.from(o.tokens ? [{ name: "ci", sha256: sha256(TOKEN) }] : []);
  const oidc =
    o.oidcKeys === undefined
      ? undefined
      : OidcVerifier.from({
          issuer: ISSUER,
          audience: [AUDIENCE],
          keys: o.oidcKeys,
          algorithms: ["ES256"],
          subjectClaim: "sub",
          requiredScopes: ["a2a.call"],
          clockToleranceSeconds: 30,
        });
  return new Authenticator({
    verifier: new CombinedVerifier(tokens, oidc),
    allowedLogins: o.allowedLogins,
  });
}

export async function startStubServer(
  o: {
    tokens?: boolean;
    /** OpenID Connect with these public keys (ISSUER, AUDIENCE of test/support/oidc.ts). */
    oidcKeys?: JWK[];
    allowedLogins?: string[];
    tracing?: Tracing;
    maxMessageBytes?: number;
    tls?: TlsMaterial;
  } = {},
): Promise<StubServer> {
  const handler = new StubHandler();
  const { logger, lines: logs, waitFor } = captureLogs();
  const server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    tls: o.tls,
    maxMessageBytes: o.maxMessageBytes ?? 64 * 1024,
    requestHandler: handler,
    auth: { auth: testAuthenticator(o), trustedProxies: ["127.0.0.1"] },
    logger,
    tracing: o.tracing,
  });
  const logged = (msg: string, n = 1) => waitFor((l) => l.msg === msg, n);
  return {
    server,
    handler,
    logs,
    logged,
    close: async () => {
      const drained = server.drain();
      server.cut();
      await drained;
    },
  };
}

/**
 * The fixture of a test file over the stub server: `start()` starts one (and a raw client to it),
 * and both are closed after each test.
 */
export function useStubServer(): (
  o?: Parameters<typeof startStubServer>[0],
) => Promise<{ stub: StubServer; client: ReturnType<typeof rawGrpcClient> }> {
  let stub: StubServer | undefined;
  let client: ReturnType<typeof rawGrpcClient> | undefined;
  afterEach(async () => {
    client?.close();
    client = undefined;
    await stub?.close();
    stub = undefined;
  });
  return async (o = {}) => {
    stub = await startStubServer(o);
    client = rawGrpcClient(stub.server.address);
    return { stub, client };
  };
}
