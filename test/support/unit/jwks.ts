/**
 * An OpenID provider's keys for a unit test file: made before its first test, the public ones
 * served as a JWKS from 127.0.0.1 (`startJwksServer`), closed after its last test.
 */
import { afterAll, beforeAll } from "vitest";
import { makeKey, startJwksServer, type JwksServer, type TestKey } from "../oidc.js";

export interface KeySpec {
  readonly kid: string;
  readonly alg?: string;
  /** `false`: a key the provider does not publish (a forger's). */
  readonly served?: boolean;
}

/** Registers the hooks; the keys by name, and the JWKS URL, are read inside tests. */
export function useJwks<N extends string>(
  specs: Record<N, KeySpec>,
): { readonly keys: Readonly<Record<N, TestKey>>; readonly url: string } {
  const keys = {} as Record<N, TestKey>;
  let server: JwksServer | undefined;
  beforeAll(async () => {
    for (const [name, spec] of Object.entries(specs) as [N, KeySpec][]) {
      keys[name] = await makeKey(spec.kid, spec.alg);
    }
    const served = (Object.keys(specs) as N[]).filter((name) => specs[name].served !== false);
    server = await startJwksServer(served.map((name) => keys[name].jwk));
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    keys,
    get url() {
      if (!server) throw new Error("useJwks: read outside a test");
      return server.url;
    },
  };
}
