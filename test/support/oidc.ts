/**
 * A stand-in identity provider for tests: keys made by jose at test time, a JWKS served from
 * 127.0.0.1 (requests counted, keys swappable), and tokens signed with those keys.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from "jose";

export const ISSUER = "https://idp.test.example";
export const AUDIENCE = "claude-a2a-test";

export interface TestKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  /** The public half as a JWK, with `kid`, `alg` and `use`. */
  readonly jwk: JWK;
}

export async function makeKey(kid: string, alg = "ES256"): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, privateKey, jwk };
}

export interface MintOptions {
  readonly issuer?: string;
  readonly audience?: string | string[];
  /** Seconds from now; negative: already expired. Undefined with `exp: false`: no `exp` claim. */
  readonly expiresIn?: number;
  readonly exp?: boolean;
  readonly notBefore?: number;
  /** Header `kid` (default: the key's); `null` leaves it out. */
  readonly kid?: string | null;
}

const now = () => Math.floor(Date.now() / 1000);

/** A JWT signed by `key`, from ISSUER for AUDIENCE, valid for ten minutes unless told otherwise. */
export async function mint(
  key: TestKey,
  claims: JWTPayload = { sub: "user-1" },
  o: MintOptions = {},
): Promise<string> {
  const kid = o.kid === undefined ? key.kid : o.kid;
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, ...(kid !== null && { kid }) })
    .setIssuer(o.issuer ?? ISSUER)
    .setAudience(o.audience ?? AUDIENCE)
    .setIssuedAt();
  if (o.exp !== false) jwt.setExpirationTime(now() + (o.expiresIn ?? 600));
  if (o.notBefore !== undefined) jwt.setNotBefore(now() + o.notBefore);
  return jwt.sign(key.privateKey);
}

export interface JwksServer {
  /** The JWKS URL on 127.0.0.1. */
  readonly url: string;
  /** GETs of the key set so far. */
  readonly requests: () => number;
  /** What the next fetch returns. */
  setKeys(keys: readonly JWK[]): void;
  /** Answer the next fetches with this status instead. */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

export async function startJwksServer(keys: readonly JWK[]): Promise<JwksServer> {
  let current = [...keys];
  let failing: number | undefined;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (failing !== undefined) {
      res.writeHead(failing).end("no");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys: current }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    requests: () => requests,
    setKeys: (next) => {
      current = [...next];
    },
    failWith: (status) => {
      failing = status;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
