import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteSchema } from "../../../src/config/forge-schema.js";
import { triggerEntriesSchema } from "../../../src/config/triggers-schema.js";
import { deliverySchema } from "../../../src/config/delivery-schema.js";
import {
  checkDeliveryForges,
  checkRemote,
  checkTriggerForges,
} from "../../../src/doctor/forge-check.js";
import { startForgeFake, type ForgeFake } from "../../support/forge-fake.js";
import { startGitHttpServer, type GitHttpServer } from "../../support/git-http-server.js";
import { tempDir, type TempDir } from "../../support/harness/temp.js";

/** `--check` on forges and remotes, against the loopback forge API and a real git remote. */

const TOKEN = "check-token-9a8b7c6d5e";
const env = { ...process.env, GOOD: TOKEN, BAD: "bad-token-123" };

let fake: ForgeFake;
let remote: GitHttpServer;
let tmp: TempDir;
beforeAll(async () => {
  fake = await startForgeFake({ token: TOKEN });
  tmp = await tempDir("claude-a2a-check-");
  remote = await startGitHttpServer({ root: tmp.path, token: TOKEN });
  remote.createRepo("app");
});
afterAll(async () => {
  await fake.close();
  await remote.close();
  await tmp.close();
});

const triggers = (forge: Record<string, string>) =>
  triggerEntriesSchema.parse({
    fix: {
      kind: "webhook",
      verify: "github",
      secretEnv: "S",
      prompt: "p",
      result: { forge },
    },
  });

describe("forge checks", () => {
  it("reads the repository or project with the token", async () => {
    const [github] = await checkTriggerForges(
      triggers({ kind: "github", baseUrl: fake.githubUrl, repository: "o/r", tokenEnv: "GOOD" }),
      env,
    );
    expect(github).toEqual({
      name: "forge triggers.fix.result",
      ok: true,
      detail: "github o/r reachable with GOOD",
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/v3/repos/o/r" });
    const [gitlab] = await checkTriggerForges(
      triggers({ kind: "gitlab", baseUrl: fake.gitlabUrl, repository: "g/p", tokenEnv: "GOOD" }),
      env,
    );
    expect(gitlab?.ok).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/v4/projects/g%2Fp" });
  });

  it("fails on a refused token or an unset variable, saying which, never the token", async () => {
    const [refused] = await checkTriggerForges(
      triggers({ kind: "github", baseUrl: fake.githubUrl, repository: "o/r", tokenEnv: "BAD" }),
      env,
    );
    expect(refused).toMatchObject({ ok: false });
    expect(refused?.detail).toContain("The token in BAD was refused");
    expect(refused?.detail).not.toContain(env.BAD);
    const [unset] = await checkTriggerForges(
      triggers({ kind: "github", baseUrl: fake.githubUrl, repository: "o/r", tokenEnv: "NONE" }),
      env,
    );
    expect(unset).toMatchObject({
      ok: false,
      detail: "github o/r: the environment variable NONE (tokenEnv) is not set",
    });
  });
});

describe("remote checks", () => {
  it("lists the remote's heads with the token", async () => {
    const r = remoteSchema.parse({ url: remote.urlOf("app"), tokenEnv: "GOOD" });
    expect(await checkRemote("remote", r, env)).toEqual({
      name: "remote",
      ok: true,
      detail: `${remote.urlOf("app")} reachable with GOOD`,
    });
    expect(remote.requests.at(-1)?.credential).toBe("right");
  }, 20_000);

  it("fails on a refused token and on a remote that is down", async () => {
    const refused = await checkRemote(
      "remote",
      remoteSchema.parse({ url: remote.urlOf("app"), tokenEnv: "BAD" }),
      env,
    );
    expect(refused.ok).toBe(false);
    expect(refused.detail).toContain("the remote refused the token in BAD (401)");
    expect(refused.detail).not.toContain(env.BAD);
    const down = await checkRemote(
      "remote",
      remoteSchema.parse({ url: "http://127.0.0.1:1/app.git", tokenEnv: "GOOD" }),
      env,
    );
    expect(down).toMatchObject({ ok: false });
    expect(down.detail).toContain("the remote is unreachable");
  }, 20_000);
});

describe("a delivery's remote and forge", () => {
  it("checks each with its token, one line each; none without them", async () => {
    const delivery = deliverySchema.parse({
      allowedTargets: ["branch", "pull-request"],
      remote: { url: remote.urlOf("app"), tokenEnv: "GOOD" },
      forge: { kind: "gitlab", baseUrl: fake.gitlabUrl, repository: "g/p", tokenEnv: "UNSET" },
    });
    const [pushTo, openOn, ...rest] = await checkDeliveryForges(delivery, env);
    expect(rest).toEqual([]);
    expect(pushTo).toEqual({
      name: "remote claude.delivery",
      ok: true,
      detail: `${remote.urlOf("app")} reachable with GOOD`,
    });
    expect(openOn).toMatchObject({
      name: "forge claude.delivery",
      ok: false,
      detail: "gitlab g/p: the environment variable UNSET (tokenEnv) is not set",
      fix: "set UNSET in the server's environment (docs/forges.md)",
    });
    expect(await checkDeliveryForges(deliverySchema.parse({}), env)).toEqual([]);
    expect(await checkDeliveryForges(undefined, env)).toEqual([]);
  }, 20_000);
});
