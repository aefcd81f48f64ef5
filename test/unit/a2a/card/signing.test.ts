/** The signed card, verified independently of the SDK (test/support/card-signature.ts). */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildCards } from "../../../../src/a2a/card/cards.js";
import { CardSigningError, loadSigningKey, signCard } from "../../../../src/a2a/card/signing.js";
import { buildAgentCard, cardDocument } from "../../../../src/a2a/card/agent-card.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import { verifyCardSignature } from "../../../support/card-signature.js";

type Json = Record<string, unknown>;

let root = "";
let cwd = "";
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "a2a-sign-"));
  cwd = join(root, "workspace");
  await mkdir(cwd);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const ec = () => generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }) as string;

async function keyFile(privateKey: KeyObject | string, name = "card.pem"): Promise<string> {
  const file = join(root, name);
  await writeFile(file, typeof privateKey === "string" ? privateKey : pem(privateKey));
  return file;
}

const config = (input: ConfigInput) =>
  resolveConfig(input, { file: "test.json", startDir: root, overrides: { cwd } });

const served = (card: AgentCard) => JSON.parse(cardDocument(card, new Date()).body) as Json;

describe("signed agent card", () => {
  it("is a JWS over the canonical served card that jose verifies, security schemes included", async () => {
    const { privateKey, publicKey } = ec();
    const signing = {
      privateKeyFile: await keyFile(privateKey),
      kid: "card-1",
      jku: "https://x.example/jwks.json",
    };
    const c = config({
      server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } },
      agentCard: { signing },
    });
    const { card, extended } = await buildCards(c, { version: "1.0.0" });
    const json = served(card);
    expect(json.securitySchemes).toMatchObject({ bearer: { httpAuthSecurityScheme: {} } });
    expect(await verifyCardSignature(json, publicKey)).toEqual({
      alg: "ES256",
      typ: "JOSE",
      kid: "card-1",
      jku: "https://x.example/jwks.json",
    });
    // The extended card is signed too, on its own content.
    if (extended === undefined) throw new Error("no extended card");
    await verifyCardSignature(served(extended), publicKey);
    // The SDK's own verifier agrees, given the wire form.
    await verifyAgentCardSignature(() => Promise.resolve(publicKey))(json as unknown as AgentCard);
  });

  it("fails verification once anything in the card is changed, or with another key", async () => {
    const { privateKey, publicKey } = ec();
    const key = await loadSigningKey({ privateKeyFile: await keyFile(privateKey), kid: "k" }, cwd);
    const base = buildAgentCard(
      config({ server: { auth: { tokens: [{ name: "ci", sha256: "b".repeat(64) }] } } }),
      {
        version: "1",
      },
    );
    const json = served(await signCard(base, key));
    await verifyCardSignature(json, publicKey);
    const tampered: Json[] = [
      { ...json, description: "Something else" },
      { ...json, securitySchemes: {} },
      {
        ...json,
        supportedInterfaces: [
          { url: "https://evil.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        ],
      },
    ];
    for (const card of tampered) {
      await expect(verifyCardSignature(card, publicKey)).rejects.toThrow(
        /signature verification failed/,
      );
    }
    await expect(verifyCardSignature(json, ec().publicKey)).rejects.toThrow(
      /signature verification failed/,
    );
  });

  it("reads the key as PEM (with \\n escapes, as a variable holds it) or JWK, from a file or the environment", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const escaped = pem(privateKey).replace(/\n/g, "\\n");
    const fromEnv = await loadSigningKey({ privateKeyEnv: "CARD_KEY", kid: "e" }, cwd, {
      CARD_KEY: escaped,
    });
    expect(fromEnv.header).toEqual({ alg: "EdDSA", typ: "JOSE", kid: "e" });
    const jwk = JSON.stringify(privateKey.export({ format: "jwk" }));
    const fromJwk = await loadSigningKey(
      { privateKeyFile: await keyFile(jwk, "card.jwk"), kid: "j" },
      cwd,
    );
    await verifyCardSignature(
      served(await signCard(buildAgentCard(config({}), { version: "1" }), fromJwk)),
      publicKey,
    );
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const rs = await loadSigningKey({ privateKeyFile: await keyFile(rsa), kid: "r" }, cwd);
    expect(rs.header.alg).toBe("RS256");
    const ps = await loadSigningKey(
      { privateKeyFile: await keyFile(rsa), kid: "r", algorithm: "PS256" },
      cwd,
    );
    expect(ps.header.alg).toBe("PS256");
  });

  it.each<
    [
      string,
      () => Promise<{ signing: Parameters<typeof loadSigningKey>[0]; env?: NodeJS.ProcessEnv }>,
      RegExp,
    ]
  >([
    [
      "a missing file",
      () => Promise.resolve({ signing: { privateKeyFile: join(root, "none.pem"), kid: "k" } }),
      /cannot read the private key file .*none\.pem/,
    ],
    [
      "an unset variable",
      () => Promise.resolve({ signing: { privateKeyEnv: "NOPE", kid: "k" }, env: {} }),
      /environment variable NOPE \(the private key\) is not set/,
    ],
    [
      "garbage",
      async () => ({ signing: { privateKeyFile: await keyFile("not a key"), kid: "k" } }),
      /does not hold a private key/,
    ],
    [
      "a public key",
      async () => ({
        signing: {
          privateKeyFile: await keyFile(
            ec().publicKey.export({ type: "spki", format: "pem" }) as string,
          ),
          kid: "k",
        },
      }),
      /a public key or certificate: the private key is needed/,
    ],
    [
      "a public JWK",
      async () => ({
        signing: {
          privateKeyFile: await keyFile(JSON.stringify(ec().publicKey.export({ format: "jwk" }))),
          kid: "k",
        },
      }),
      /a public JWK/,
    ],
    [
      "an algorithm the key cannot use",
      async () => ({
        signing: { privateKeyFile: await keyFile(ec().privateKey), kid: "k", algorithm: "ES384" },
      }),
      /algorithm ES384 does not fit the ec prime256v1 key .* \(it signs with ES256\)/,
    ],
    [
      "a short RSA key",
      async () => ({
        signing: {
          privateKeyFile: await keyFile(
            generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey,
          ),
          kid: "k",
        },
      }),
      /1024 bits; at least 2048/,
    ],
    [
      "a key type that cannot sign a card",
      async () => ({
        signing: {
          privateKeyFile: await keyFile(generateKeyPairSync("x25519").privateKey),
          kid: "k",
        },
      }),
      /x25519 key .* cannot sign a card/,
    ],
  ])("stops startup clearly on %s", async (_label, make, expected) => {
    const { signing, env } = await make();
    const loading = loadSigningKey(signing, cwd, env ?? {});
    await expect(loading).rejects.toThrow(CardSigningError);
    await expect(loadSigningKey(signing, cwd, env ?? {})).rejects.toThrow(expected);
  });

  it("refuses a key file inside the workspace, where Claude could read it", async () => {
    const inside = join(cwd, ".claude", "card.pem");
    await mkdir(join(cwd, ".claude"));
    await writeFile(inside, pem(ec().privateKey));
    await expect(loadSigningKey({ privateKeyFile: inside, kid: "k" }, cwd)).rejects.toThrow(
      /inside the workspace .* keep it outside, or use privateKeyEnv/,
    );
  });

  it("leaves the cards unsigned without agentCard.signing", async () => {
    const { card, extended } = await buildCards(config({}), { version: "1" });
    expect(card.signatures).toEqual([]);
    expect(extended).toBeUndefined();
  });
});
