/**
 * OpenID Connect callers, the authenticated extended card and the signed card, end to end: the
 * real runtime with the scripted model, the official client over HTTP on 127.0.0.1, and a JWKS
 * served from 127.0.0.1 with keys made by jose in the test.
 */
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentCard, TaskState } from "@a2a-js/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_EXTENSION_URI } from "../../src/contract/extended-card.js";
import { connect } from "../../src/client/connect.js";
import type { ConfigInput } from "../../src/config/schema.js";
import { verifyCardSignature } from "../support/card-signature.js";
import {
  resultOf,
  says,
  sendForTask,
  startA2AHarness,
  userMessage,
  type A2AHarness,
} from "../support/harness/index.js";
import { mappedSessionKeys } from "../support/harness/session-map.js";
import {
  AUDIENCE,
  ISSUER,
  makeKey,
  mint,
  startJwksServer,
  type JwksServer,
  type TestKey,
} from "../support/oidc.js";

const TIMEOUT = 120_000;
const V1 = { "A2A-Version": "1.0", "Content-Type": "application/json" };
const CI_TOKEN = "ci-token-for-the-card-tests";
const CI = { name: "ci", sha256: createHash("sha256").update(CI_TOKEN).digest("hex") };

let key: TestKey;
let jwks: JwksServer;
let h: A2AHarness | undefined;
let scratch = "";

beforeAll(async () => {
  key = await makeKey("idp-key-1");
  jwks = await startJwksServer([key.jwk]);
  scratch = await mkdtemp(join(tmpdir(), "a2a-card-key-"));
});
afterAll(async () => {
  await jwks.close();
  await rm(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const oidc = { issuer: ISSUER, audience: AUDIENCE, jwksUrl: "" };
const withOidc = (extra: ConfigInput = {}): ConfigInput => ({
  ...extra,
  server: {
    ...extra.server,
    auth: { ...extra.server?.auth, oidc: { ...oidc, jwksUrl: jwks.url } },
  },
});

const rpc = (method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

describe("OpenID Connect callers", () => {
  it(
    "a valid token's subject is the caller: its tasks and conversations are its own, like a token's name",
    async () => {
      h = await startA2AHarness({
        rules: [says("I am Alice", "Hello Alice."), says("Who am I?", "I do not know.")],
        config: withOidc({
          server: {
            auth: { tokens: [CI] },
          },
        }),
      });
      const alice = await connect(h.server.url, await mint(key, { sub: "alice" }));
      const bob = await connect(h.server.url, await mint(key, { sub: "bob" }));
      const ci = await connect(h.server.url, CI_TOKEN);
      const contextId = "shared";

      const told = await sendForTask(alice, userMessage("I am Alice", { contextId }));
      expect(told.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(resultOf(told)).toBe("Hello Alice.");
      // Bob (another subject) and ci (a static token) each have their own conversation there.
      for (const other of [bob, ci]) {
        const asked = await sendForTask(other, userMessage("Who am I?", { contextId }));
        expect(asked.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        await expect(
          other.getTask({ tenant: "", id: told.id, historyLength: undefined }),
        ).rejects.toThrow(/not found/i);
      }
      const asks = h.bench.model.messageRequests.filter((r) =>
        r.lastUserText.includes("Who am I?"),
      );
      expect(asks).toHaveLength(2);
      for (const ask of asks) expect(JSON.stringify(ask.body)).not.toContain("I am Alice");
      expect(
        await alice.getTask({ tenant: "", id: told.id, historyLength: undefined }),
      ).toMatchObject({
        id: told.id,
      });

      await h.server.pool.closeAll();
      expect(await mappedSessionKeys(h.bench.sandbox.cwd)).toEqual([
        JSON.stringify(["oidc:alice", contextId]),
        JSON.stringify(["oidc:bob", contextId]),
        JSON.stringify(["token:ci", contextId]),
      ]);
    },
    TIMEOUT,
  );

  it(
    "an expired or foreign token is refused with 401 and the reason, before any handler runs",
    async () => {
      h = await startA2AHarness({ config: withOidc() });
      const call = async (token: string) => {
        const res = await fetch(`${h?.server.url}/a2a/jsonrpc`, {
          method: "POST",
          headers: { ...V1, Authorization: `Bearer ${token}` },
          body: rpc("GetTask", { id: randomUUID() }),
        });
        return {
          status: res.status,
          challenge: res.headers.get("www-authenticate"),
          body: await res.json(),
        };
      };
      expect(await call(await mint(key, { sub: "alice" }, { expiresIn: -3600 }))).toEqual({
        status: 401,
        challenge:
          'Bearer realm="claude-a2a", error="invalid_token", error_description="The token has expired."',
        body: { error: "unauthorized", message: "The token has expired." },
      });
      const foreign = await call(await mint(await makeKey("not-published"), { sub: "mallory" }));
      expect(foreign.status).toBe(401);
      expect(foreign.body).toEqual({
        error: "unauthorized",
        message:
          'The token is signed with a key the identity provider does not publish (kid "not-published").',
      });
      // The card says what to send.
      const card = (await (
        await fetch(`${h.server.url}/.well-known/agent-card.json`)
      ).json()) as Record<string, unknown>;
      expect(card.securitySchemes).toMatchObject({
        oidc: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } },
      });
      expect(h.bench.model.messageRequests).toHaveLength(0);
    },
    TIMEOUT,
  );
});

describe("the authenticated extended card", () => {
  it(
    "is refused anonymously, served with a token, and adds the workspace's settings, commands and subagents",
    async () => {
      h = await startA2AHarness({
        config: withOidc({ claude: { model: "claude-test-model" } }),
      });
      const claudeDir = join(h.bench.sandbox.cwd, ".claude");
      await mkdir(join(claudeDir, "commands"), { recursive: true });
      await mkdir(join(claudeDir, "agents"), { recursive: true });
      await writeFile(
        join(claudeDir, "commands", "ship.md"),
        "---\ndescription: Build and ship\n---\nUse $DEPLOY_TOKEN",
      );
      await writeFile(
        join(claudeDir, "agents", "reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews diffs\n---\nbody",
      );
      await h.restart(); // the cards are built at startup

      const url = h.server.url;
      const anonymousRpc = await fetch(`${url}/a2a/jsonrpc`, {
        method: "POST",
        headers: V1,
        body: rpc("GetExtendedAgentCard", {}),
      });
      expect(anonymousRpc.status).toBe(401);
      const anonymousRest = await fetch(`${url}/a2a/rest/extendedAgentCard`, {
        headers: { "A2A-Version": "1.0" },
      });
      expect(anonymousRest.status).toBe(401);

      const publicCard = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
        capabilities: Record<string, unknown>;
        skills: { id: string }[];
      };
      expect(publicCard.capabilities.extendedAgentCard).toBe(true);
      const publicExtensions = publicCard.capabilities.extensions as unknown[];
      expect(JSON.stringify(publicExtensions)).not.toContain(WORKSPACE_EXTENSION_URI);
      expect(publicCard.skills.map((s) => s.id)).toEqual(["claude-code"]);

      const client = await connect(url, await mint(key, { sub: "alice" }));
      const extended = AgentCard.toJSON(await client.getAgentCard()) as typeof publicCard;
      expect(extended.capabilities.extensions).toEqual([
        ...publicExtensions,
        {
          uri: WORKSPACE_EXTENSION_URI,
          description: "The Claude Code settings this agent runs with.",
          params: { model: "claude-test-model", permissionMode: "acceptEdits" },
        },
      ]);
      expect(extended.skills).toEqual([
        publicCard.skills[0],
        {
          id: "command:ship",
          name: "/ship",
          description: "Build and ship",
          tags: ["slash-command"],
          examples: ["/ship"],
        },
        {
          id: "agent:reviewer",
          name: "reviewer",
          description: "Reviews diffs",
          tags: ["subagent"],
        },
      ]);
      const served = JSON.stringify(extended);
      expect(served).not.toContain("DEPLOY_TOKEN");
      expect(served).not.toContain(h.bench.sandbox.cwd);

      // The REST binding serves the same card.
      const rest = await fetch(`${url}/a2a/rest/extendedAgentCard`, {
        headers: {
          "A2A-Version": "1.0",
          Authorization: `Bearer ${await mint(key, { sub: "alice" })}`,
        },
      });
      expect(rest.status).toBe(200);
      expect(((await rest.json()) as typeof publicCard).skills).toEqual(extended.skills);
    },
    TIMEOUT,
  );
});

describe("the signed card", () => {
  it(
    "the public and the extended card carry a JWS that verifies with the public key; caching still works",
    async () => {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const keyFile = join(scratch, "card.pem");
      await writeFile(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
      h = await startA2AHarness({
        config: {
          server: { auth: { tokens: [CI] } },
          agentCard: { signing: { privateKeyFile: keyFile, kid: "card-key-1" } },
        },
      });
      const res = await fetch(`${h.server.url}/.well-known/agent-card.json`);
      const card = (await res.json()) as Record<string, unknown>;
      expect(await verifyCardSignature(card, publicKey)).toEqual({
        alg: "ES256",
        typ: "JOSE",
        kid: "card-key-1",
      });
      await expect(verifyCardSignature({ ...card, name: "Impostor" }, publicKey)).rejects.toThrow(
        /signature verification failed/,
      );
      const etag = res.headers.get("etag") ?? "";
      const again = await fetch(`${h.server.url}/.well-known/agent-card.json`, {
        headers: { "If-None-Match": etag },
      });
      expect(again.status).toBe(304);

      // The extended card, as GetExtendedAgentCard returns it, is signed over its own content.
      const rpcCard = await fetch(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers: { ...V1, Authorization: `Bearer ${CI_TOKEN}` },
        body: rpc("GetExtendedAgentCard", {}),
      });
      const extended = ((await rpcCard.json()) as { result: Record<string, unknown> }).result;
      expect(extended.signatures).not.toEqual(card.signatures);
      expect(await verifyCardSignature(extended, publicKey)).toMatchObject({ kid: "card-key-1" });
    },
    TIMEOUT,
  );
});
