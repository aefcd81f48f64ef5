/**
 * The HTTP gate with OpenID Connect: what a client sees for each refusal (status, JSON body,
 * WWW-Authenticate), against a JWKS served from 127.0.0.1.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticatorFrom } from "../../../src/auth/from-config.js";
import { configSchema } from "../../../src/config/schema.js";
import { authGate } from "../../../src/http/auth.js";
import { callerOf } from "../../../src/http/caller.js";
import { ownerKey } from "../../../src/identity/caller.js";
import { freePort } from "../../support/a2a/harness.js";
import { AUDIENCE, ISSUER, mint } from "../../support/oidc.js";
import { useJwks } from "../../support/unit/jwks.js";

const idp = useJwks({ key: { kid: "k1" } });
let server: Server | undefined;
let url = "";
const warnings: unknown[] = [];

async function serve(oidc: Record<string, unknown>): Promise<void> {
  if (server) {
    server.closeAllConnections();
    server.close();
  }
  const parsed = configSchema.parse({
    server: {
      auth: {
        tokens: [{ name: "ci", env: "CI_TOKEN" }],
        oidc: { issuer: ISSUER, audience: AUDIENCE, ...oidc },
      },
    },
  }).server;
  const logger = pino(
    { level: "warn" },
    { write: (line: string) => warnings.push(JSON.parse(line)) },
  );
  const app = express();
  app.use(
    authGate({
      auth: authenticatorFrom(parsed, { CI_TOKEN: "ci-secret" }),
      trustedProxies: [],
      logger,
    }),
  );
  app.get("/", (req, res) => {
    res.json({ scope: ownerKey(callerOf(req)) });
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  await serve({ jwksUrl: idp.url, requiredScopes: ["a2a"] });
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

const get = async (token?: string) => {
  const res = await fetch(
    url,
    token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  );
  return {
    status: res.status,
    challenge: res.headers.get("www-authenticate"),
    body: await res.json(),
  };
};

describe("auth gate with OIDC and static tokens", () => {
  it("lets a valid JWT in as oidc:<sub>, and a static token as token:<name>", async () => {
    expect(await get(await mint(idp.keys.key, { sub: "alice", scope: "a2a" }))).toMatchObject({
      status: 200,
      body: { scope: "oidc:alice" },
    });
    expect(await get("ci-secret")).toMatchObject({ status: 200, body: { scope: "token:ci" } });
  });

  it("answers an expired token 401 with the reason in WWW-Authenticate and the body", async () => {
    expect(
      await get(await mint(idp.keys.key, { sub: "a", scope: "a2a" }, { expiresIn: -3600 })),
    ).toEqual({
      status: 401,
      challenge:
        'Bearer realm="claude-a2a", error="invalid_token", error_description="The token has expired."',
      body: { error: "unauthorized", message: "The token has expired." },
    });
  });

  it("answers a wrong audience 401, naming the expected one", async () => {
    const refused = await get(
      await mint(idp.keys.key, { sub: "a", scope: "a2a" }, { audience: "other" }),
    );
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain(
      `error_description="The token is not meant for this agent (expected audience '${AUDIENCE}').`,
    );
  });

  it("answers a missing scope 403 insufficient_scope, and a missing token 401 without error", async () => {
    expect(await get(await mint(idp.keys.key, { sub: "a" }))).toEqual({
      status: 403,
      challenge:
        'Bearer realm="claude-a2a", error="insufficient_scope", error_description="The token lacks the scope this agent requires: a2a.", scope="a2a"',
      body: { error: "forbidden", message: "The token lacks the scope this agent requires: a2a." },
    });
    expect(await get()).toMatchObject({ status: 401, challenge: 'Bearer realm="claude-a2a"' });
    expect(await get("wrong")).toMatchObject({
      status: 401,
      body: { message: "The bearer token is not valid." },
    });
  });

  it("answers 503 and logs the cause when the provider's keys cannot be fetched", async () => {
    await serve({ jwksUrl: `http://127.0.0.1:${await freePort()}/jwks` });
    const refused = await get(await mint(idp.keys.key, { sub: "a" }));
    expect(refused).toMatchObject({ status: 503, challenge: null, body: { error: "unavailable" } });
    expect(warnings).toContainEqual(
      expect.objectContaining({ msg: "auth: the identity provider's keys could not be fetched" }),
    );
  });
});
