import { generateKeyPairSync } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildCards, extendedCardProvider } from "../../../../src/a2a/card/cards.js";
import { EXTENDED_CARD_NEEDS_CALLER } from "../../../../src/contract/extended-card.js";
import { resolveConfig } from "../../../../src/config/load.js";
import { CallerUser } from "../../../../src/identity/caller.js";

let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "a2a-cards-"));
  await mkdir(join(cwd, ".claude", "commands"), { recursive: true });
  await writeFile(
    join(cwd, ".claude", "commands", "test.md"),
    "---\ndescription: Run tests\n---\n",
  );
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const tokens = [{ name: "ci", sha256: "a".repeat(64) }];

describe("cards", () => {
  it("builds the extended card from the workspace when authentication is configured", async () => {
    const config = resolveConfig(
      { server: { auth: { tokens } }, claude: { model: "m-1", permissionMode: "plan" } },
      { file: "t.json", startDir: cwd },
    );
    const { card, extended } = await buildCards(config, { version: "1" });
    expect(card.capabilities?.extendedAgentCard).toBe(true);
    expect(extended?.skills.map((s) => s.id)).toEqual(["claude-code", "command:test"]);
    expect(extended?.capabilities?.extensions.at(-1)?.params).toEqual({
      model: "m-1",
      permissionMode: "plan",
    });
    expect(JSON.stringify(extended)).not.toContain(cwd);
  });

  it("serves it to an authenticated caller only; to a v0.3 one without the v1.0 signature", async () => {
    const keyFile = join(tmpdir(), `a2a-cards-key-${process.pid}.pem`);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    await writeFile(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
    const config = resolveConfig(
      {
        server: { auth: { tokens } },
        agentCard: { signing: { privateKeyFile: keyFile, kid: "k" } },
      },
      { file: "t.json", startDir: cwd },
    );
    const { extended } = await buildCards(config, { version: "1" }).finally(() => rm(keyFile));
    if (extended === undefined) throw new Error("no extended card");
    expect(extended.signatures).toHaveLength(1);
    const provide = extendedCardProvider(extended);
    const as = (user: CallerUser | undefined, requestedVersion = "1.0") =>
      new ServerCallContext({ requestedVersion, ...(user && { user }) });
    expect(await provide(as(new CallerUser({ kind: "oidc", subject: "s" })))).toBe(extended);
    expect(await provide(as(new CallerUser({ kind: "token", name: "ci" })))).toBe(extended);
    const legacy = await provide(as(new CallerUser({ kind: "token", name: "ci" }), "0.3"));
    expect(legacy).toEqual({ ...extended, signatures: [] });
    for (const context of [as(undefined), as(new CallerUser({ kind: "anonymous" }))]) {
      const refused = provide(context);
      await expect(refused).rejects.toBeInstanceOf(UnsupportedOperationError);
      await expect(provide(context)).rejects.toThrow(EXTENDED_CARD_NEEDS_CALLER);
    }
  });
});
