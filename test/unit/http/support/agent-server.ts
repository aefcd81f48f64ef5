/**
 * The whole server but Claude over real HTTP: `createAgent` with scripted queries (the unit
 * tests' `scriptedAgent`) behind the real HTTP app on 127.0.0.1:0, two bearer-token callers.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { legacyAgentCardJson } from "../../../../src/a2a/card/legacy-card.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import { Authenticator } from "../../../../src/auth/decide.js";
import { StaticTokenVerifier } from "../../../../src/auth/static-tokens.js";
import { CombinedVerifier } from "../../../../src/auth/verifier.js";
import { createHttpApp } from "../../../../src/http/app.js";
import type { Tracing } from "../../../../src/tracing/tracing.js";
import { scriptedAgent, type ScriptedAgent } from "../../a2a/support/agent.js";
import { perTest } from "../../../support/harness/scope.js";
import { JSON_V1 } from "./stub-handler.js";

export const TOKENS = { ci: "token-of-ci", laptop: "token-of-laptop" } as const;
export type Who = keyof typeof TOKENS;

export interface AgentServer {
  readonly h: ScriptedAgent;
  readonly url: string;
  /** The wall clock of per-caller limits, by hand (epoch ms). */
  readonly clock: { ms: number };
  close(): Promise<void>;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

export async function serveAgent(o: {
  readonly config?: ConfigInput;
  readonly now?: number;
  readonly tracing?: Tracing;
}): Promise<AgentServer> {
  const clock = { ms: o.now ?? Date.now() };
  const h = await scriptedAgent({
    ...(o.config && { config: o.config }),
    clock: { now: () => clock.ms },
    ...(o.tracing && { tracing: o.tracing }),
  });
  const tokens = StaticTokenVerifier.from(
    [
      { name: "ci", env: "CI_TOKEN" },
      { name: "laptop", env: "LAPTOP_TOKEN" },
    ],
    { CI_TOKEN: TOKENS.ci, LAPTOP_TOKEN: TOKENS.laptop },
  );
  const compat = o.config?.server?.compat?.v03 === true;
  const app = createHttpApp({
    ...(compat && { compatV03: { legacyCard: await legacyAgentCardJson(h.agent.card) } }),
    card: h.agent.card,
    requestHandler: h.agent.requestHandler,
    bodyLimit: 100_000,
    auth: new Authenticator({ verifier: new CombinedVerifier(tokens, undefined) }),
    logger: pino({ level: "silent" }),
    tracing: h.agent.tracing,
  });
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    h,
    url: `http://127.0.0.1:${port}`,
    clock,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
      await h.close();
    },
  };
}

/** `serveAgent(o)`, closed when the running test ends (call it inside a test). */
export const servedAgent = async (o: Parameters<typeof serveAgent>[0] = {}): Promise<AgentServer> =>
  perTest(await serveAgent(o));

/** Headers of a v1.0 request by `who`; `extra` may unset one by giving it `""`. */
const auth = (who: Who, extra: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries({ ...JSON_V1, authorization: `Bearer ${TOKENS[who]}`, ...extra }).filter(
      ([, v]) => v !== "",
    ),
  );

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  // A stream that opened is SSE; a refusal before it is one JSON answer.
  const json = res.headers.get("content-type")?.includes("json") ?? false;
  const body = (json ? JSON.parse(text) : { text }) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, body };
}

export async function jsonRpc(
  s: AgentServer,
  who: Who,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${s.url}/a2a/jsonrpc`, {
    method: "POST",
    headers: auth(who, headers),
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return answerOf(res);
}

export async function restPost(
  s: AgentServer,
  who: Who,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${s.url}/a2a/rest${path}`, {
    method: "POST",
    headers: auth(who, headers),
    body: JSON.stringify(body),
  });
  return answerOf(res);
}

let seq = 0;
/** A user message in wire form. */
export const wireMessage = (o: { taskId?: string; text?: string } = {}) => ({
  messageId: `wire-${++seq}`,
  role: "ROLE_USER",
  parts: [{ text: o.text ?? "hello" }],
  ...(o.taskId && { taskId: o.taskId }),
});

/** The task of a SendMessage answer. */
export const answeredTaskId = (a: Answer): string => {
  const task = (a.body.result as { task?: { id?: string } } | undefined)?.task;
  if (task?.id === undefined) throw new Error(`no task in ${JSON.stringify(a.body)}`);
  return task.id;
};
