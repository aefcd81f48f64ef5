import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { sep } from "node:path";
import { generateAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import type { Config } from "../../config/schema.js";
import type { JwsAlgorithm } from "../../config/security-schema.js";
import { agentCardJson } from "./agent-card.js";

type Signing = NonNullable<Config["agentCard"]["signing"]>;

/** `agentCard.signing` cannot be used: startup stops with this message. */
export class CardSigningError extends Error {}

/** The protected header of every signature (A2A v1.0 §8.4.2: `alg`, `typ`, `kid`, `jku`). */
export interface SigningHeader {
  readonly alg: JwsAlgorithm;
  readonly typ: "JOSE";
  readonly kid: string;
  readonly jku?: string;
}

export interface SigningKey {
  readonly key: KeyObject;
  readonly header: SigningHeader;
}

/** The algorithms a key can sign with, the first being its default. */
function algorithmsFor(key: KeyObject): readonly JwsAlgorithm[] {
  const details = key.asymmetricKeyDetails;
  switch (key.asymmetricKeyType) {
    case "ec":
      switch (details?.namedCurve) {
        case "prime256v1":
          return ["ES256"];
        case "secp384r1":
          return ["ES384"];
        case "secp521r1":
          return ["ES512"];
        default:
          return [];
      }
    case "rsa":
      return ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"];
    case "rsa-pss":
      return ["PS256", "PS384", "PS512"];
    case "ed25519":
      return ["EdDSA"];
    default:
      return [];
  }
}

/** PEM (PKCS#8, SEC1 or PKCS#1; `\n` escapes allowed, as environment variables carry them) or a JWK. */
function parsePrivateKey(text: string, source: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    if (trimmed.startsWith("{")) {
      const jwk = JSON.parse(trimmed) as Record<string, unknown>;
      if (!("d" in jwk)) throw new Error('a public JWK: the private key (with "d") is needed');
      key = createPrivateKey({ key: jwk as never, format: "jwk" });
    } else {
      const pem = trimmed.replace(/\\n/g, "\n");
      if (/-----BEGIN (RSA )?PUBLIC KEY-----|-----BEGIN CERTIFICATE-----/.test(pem)) {
        throw new Error("a public key or certificate: the private key is needed");
      }
      key = createPrivateKey(pem);
    }
  } catch (err) {
    throw new CardSigningError(
      `agentCard.signing: ${source} does not hold a private key: ${(err as Error).message}`,
    );
  }
  return key;
}

/** Where the key text comes from; a file inside the workspace is refused (Claude reads it). */
async function keyText(signing: Signing, cwd: string, env: NodeJS.ProcessEnv) {
  if (signing.privateKeyEnv !== undefined) {
    const value = env[signing.privateKeyEnv];
    if (value === undefined || value.trim() === "") {
      throw new CardSigningError(
        `agentCard.signing: environment variable ${signing.privateKeyEnv} (the private key) is not set`,
      );
    }
    return { text: value, source: `environment variable ${signing.privateKeyEnv}` };
  }
  const file = signing.privateKeyFile as string;
  let real: string;
  let text: string;
  try {
    real = await realpath(file);
    text = await readFile(real, "utf8");
  } catch (err) {
    throw new CardSigningError(
      `agentCard.signing: cannot read the private key file ${file}: ${(err as Error).message}`,
    );
  }
  const workspace = await realpath(cwd);
  if (real === workspace || real.startsWith(`${workspace}${sep}`)) {
    throw new CardSigningError(
      `agentCard.signing: the private key file ${file} is inside the workspace ${cwd}, where ` +
        `Claude (and so any caller) can read it; keep it outside, or use privateKeyEnv`,
    );
  }
  return { text, source: `file ${file}` };
}

/** Reads and checks the key now, so a bad one stops startup with a message saying why. */
export async function loadSigningKey(
  signing: Signing,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SigningKey> {
  const { text, source } = await keyText(signing, cwd, env);
  const key = parsePrivateKey(text, source);
  const usable = algorithmsFor(key);
  const alg = signing.algorithm ?? usable[0];
  if (alg === undefined || !usable.includes(alg)) {
    const type = `${key.asymmetricKeyType ?? "unknown"}${
      key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ""
    }`;
    throw new CardSigningError(
      usable.length === 0
        ? `agentCard.signing: the ${type} key in ${source} cannot sign a card; use an EC (P-256, P-384, P-521), RSA or Ed25519 key`
        : `agentCard.signing: algorithm ${alg} does not fit the ${type} key in ${source} (it signs with ${usable.join(", ")})`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits !== undefined && bits < 2048) {
    throw new CardSigningError(
      `agentCard.signing: the RSA key in ${source} has ${bits} bits; at least 2048 are needed`,
    );
  }
  return {
    key,
    header: {
      alg,
      typ: "JOSE",
      kid: signing.kid,
      ...(signing.jku !== undefined && { jku: signing.jku }),
    },
  };
}

/**
 * Signs a card with the SDK's signer (JWS over the JCS-canonical card, A2A v1.0 §8.4.1). The
 * signer is given the card's wire form, not the in-memory one: it canonicalizes with
 * `AgentCard.fromJSON`, which reads the in-memory form's oneofs (`securitySchemes`) as empty, so
 * signing that would leave the security schemes out of the signed payload and every verifier
 * that canonicalizes the served JSON would reject the card.
 */
export async function signCard(card: AgentCard, signing: SigningKey): Promise<AgentCard> {
  const sign = generateAgentCardSignature(signing.key, { ...signing.header });
  const wire = agentCardJson({ ...card, signatures: [] });
  const signed = await sign(wire as unknown as AgentCard);
  return { ...card, signatures: signed.signatures };
}
