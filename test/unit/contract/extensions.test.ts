import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentCard } from "@a2a-js/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildCards } from "../../../src/a2a/card/cards.js";
import { resolveConfig } from "../../../src/config/load.js";
import {
  activatedExtensions,
  assertDeclared,
  declaredFor,
  EXTENSIONS,
} from "../../../src/contract/extensions.js";

const cardWith = (uris: readonly string[]): AgentCard =>
  ({
    capabilities: {
      extensions: uris.map((uri) => ({ uri, description: "", required: false, params: undefined })),
    },
  }) as unknown as AgentCard;

describe("EXTENSIONS, the one list of the extensions the server declares", () => {
  it("names each URI once", () => {
    const uris = EXTENSIONS.map((e) => e.uri);
    expect(new Set(uris).size).toBe(uris.length);
  });

  it.each(EXTENSIONS.map((e) => [e.uri, e.activation] as const))(
    "%s is confirmed to a request that lists it only when its activation is `requested` (%s)",
    (uri, activation) => {
      expect(activatedExtensions(["https://example.com/x", uri])).toEqual(
        activation === "requested" ? [uri] : [],
      );
    },
  );

  it.each([
    ["a stray extension", "public", ["urn:x:not-listed"], /not in EXTENSIONS: urn:x:not-listed/],
    ["an extended-only one on the public card", "public", declaredFor("extended").slice(-1), /not/],
    ["two out of order", "public", declaredFor("public").slice(0, 2).reverse(), /order/],
  ] as const)("assertDeclared refuses %s", (_name, card, uris, error) => {
    expect(() => assertDeclared(cardWith(uris), card)).toThrow(error);
  });

  describe("the cards as built, every extension on", () => {
    let cwd = "";
    beforeEach(async () => {
      cwd = await mkdtemp(join(tmpdir(), "a2a-extensions-"));
    });
    afterEach(async () => {
      await rm(cwd, { recursive: true, force: true });
    });

    it("list exactly what EXTENSIONS declares for each card, in its order", async () => {
      const config = resolveConfig(
        {
          server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } },
          claude: { allowedModels: ["m-2"], allowedPermissionModes: ["plan"] },
        },
        { file: "t.json", startDir: cwd },
      );
      const { card, extended } = await buildCards(config, { version: "1" });
      expect(card.capabilities?.extensions.map((x) => x.uri)).toEqual(declaredFor("public"));
      expect(extended?.capabilities?.extensions.map((x) => x.uri)).toEqual(declaredFor("extended"));
    });
  });
});
