import { generateKeyPairSync } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import { checkAccess } from "../../../src/doctor/checks.js";
import { checkOidc, checkSigning, usableKeys } from "../../../src/doctor/security-checks.js";
import { useTempDir } from "../../support/unit/temp-dir.js";
import { freePort } from "../../support/a2a/harness.js";
import { useJwks } from "../../support/unit/jwks.js";

const idp = useJwks({ key: { kid: "k1" } });
const dir = useTempDir("a2a-doctor-sec-");

const config = (input: ConfigInput = {}) =>
  resolveConfig(input, { file: "t.json", startDir: dir(), overrides: { cwd: dir() } });
const oidc = (o: Record<string, unknown>) =>
  config({
    server: { auth: { oidc: { issuer: "https://idp", audience: "a2a", ...o } } },
  });

describe("--check: OpenID Connect", () => {
  it("says nothing when OIDC is off, and counts it as authentication when on", async () => {
    expect(await checkOidc(config().server)).toEqual([]);
    const remote = oidc({ jwksUrl: idp.url });
    expect(checkAccess({ ...remote.server, host: "0.0.0.0" })).toMatchObject({
      ok: true,
      detail: "0.0.0.0: OpenID Connect (https://idp)",
    });
  });

  it("fetches the key set and counts its usable keys", async () => {
    expect(await checkOidc(oidc({ jwksUrl: idp.url }).server)).toEqual([
      { name: "oidc", ok: true, detail: `issuer https://idp, 1 key(s) at ${idp.url}` },
    ]);
    const down = `http://127.0.0.1:${await freePort()}/jwks`;
    const [unreachable] = await checkOidc(oidc({ jwksUrl: down }).server);
    expect(unreachable).toMatchObject({
      ok: false,
      detail: expect.stringContaining(
        `the key set at ${down} cannot be used: fetch failed`,
      ) as string,
    });
    expect(unreachable?.fix).toMatch(/jwksUrl/);
    expect(() => usableKeys({ keys: [{ kty: "EC", x: "junk" }] })).toThrow(/none of its 1 key/);
    expect(() => usableKeys({ nokeys: true })).toThrow(/not a JWKS/);
  });

  it("requires static keys to parse", async () => {
    expect(await checkOidc(oidc({ keys: [idp.keys.key.jwk] }).server)).toEqual([
      { name: "oidc", ok: true, detail: "issuer https://idp, 1 static key(s)" },
    ]);
    const [bad] = await checkOidc(
      oidc({ keys: [{ kty: "EC", crv: "P-256", x: "nope", y: "nope" }] }).server,
    );
    expect(bad).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/keys\[0\]: not a usable public key/) as string,
    });
  });
});

describe("--check: card signing", () => {
  it("parses the key as startup does", async () => {
    expect(await checkSigning(config())).toEqual([]);
    const file = join(tmpdir(), `a2a-card-${process.pid}.pem`);
    await writeFile(
      file,
      generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({
        type: "pkcs8",
        format: "pem",
      }),
    );
    try {
      expect(
        await checkSigning(config({ agentCard: { signing: { privateKeyFile: file, kid: "c1" } } })),
      ).toEqual([{ name: "card signing", ok: true, detail: "ES384, kid c1" }]);
    } finally {
      await rm(file, { force: true });
    }
    const [unset] = await checkSigning(
      config({ agentCard: { signing: { privateKeyEnv: "NO_SUCH_KEY", kid: "c1" } } }),
      {},
    );
    expect(unset).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/NO_SUCH_KEY/) as string,
    });
  });
});
