import { writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import {
  checkAccess,
  checkCredentials,
  checkGrpc,
  checkRuntime,
  checkStore,
  checkWorkspace,
  formatReport,
} from "../../../src/doctor/checks.js";
import { main } from "../../../src/app/main.js";
import { makeTestCert } from "../../support/tls.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const dir = useTempDir("a2a-doctor-");
const config = (input: ConfigInput = {}) =>
  resolveConfig(input, { file: "t.json", startDir: dir(), overrides: { cwd: dir() } });

describe("claude-a2a --check", () => {
  it("checks who may call: an unsafe bind and an unset token variable are failures with a fix", () => {
    expect(checkAccess(config().server)).toMatchObject({
      ok: true,
      detail: "127.0.0.1: no authentication (loopback only)",
    });
    const open = checkAccess(config({ server: { host: "0.0.0.0" } }).server);
    expect(open.ok).toBe(false);
    expect(open.fix).toMatch(/server\.auth\.tokens/);
    const tokens = [
      { name: "ci", sha256: "a".repeat(64) },
      { name: "ops", env: "OPS_TOKEN" },
    ];
    const remote = config({ server: { host: "0.0.0.0", auth: { tokens } } }).server;
    const unset = checkAccess(remote, {});
    expect(unset.ok).toBe(false);
    expect(unset.detail).toMatch(/"ops" reads environment variable OPS_TOKEN/);
    expect(checkAccess(remote, { OPS_TOKEN: "t" })).toMatchObject({
      ok: true,
      detail: "0.0.0.0: 2 bearer token(s)",
    });
    const operated = { ...remote, operators: ["ops"] };
    expect(checkAccess(operated, { OPS_TOKEN: "t" }).detail).toBe(
      "0.0.0.0: 2 bearer token(s); operators: ops",
    );
  });

  it("checks the gRPC binding: off, its port, its TLS files; an unsafe gRPC bind in access", async () => {
    expect(await checkGrpc(config())).toEqual({
      name: "grpc",
      ok: true,
      detail: "off (server.grpc.port unset)",
    });
    expect(await checkGrpc(config({ server: { grpc: { port: 50051 } } }))).toMatchObject({
      ok: true,
      detail: "127.0.0.1:50051 (card: 127.0.0.1:50051), plaintext",
    });
    expect(await checkGrpc(config({ server: { grpc: { port: 3008 } } }))).toMatchObject({
      ok: false,
      detail: "server.grpc.port 3008 is the HTTP port (server.port) too",
    });
    await makeTestCert(dir());
    const tls = { keyFile: "server.key", certFile: "server.crt" };
    const secure = await checkGrpc(config({ server: { grpc: { port: 50051, tls } } }));
    expect(secure.ok).toBe(true);
    expect(secure.detail).toMatch(/^127\.0\.0\.1:50051 .*, TLS: CN=localhost, valid until \d{4}-/);
    const missing = await checkGrpc(
      config({ server: { grpc: { port: 50051, tls: { ...tls, keyFile: "gone.key" } } } }),
    );
    expect(missing.ok).toBe(false);
    expect(missing.fix).toMatch(/server\.grpc\.tls/);
    expect(missing.detail).toMatch(/gone\.key/);
    const open = checkAccess(config({ server: { grpc: { port: 50051, host: "0.0.0.0" } } }).server);
    expect(open).toMatchObject({
      ok: false,
      detail: "server.grpc.host 0.0.0.0 is not loopback and no authentication is configured",
    });
  });

  it("formats ok and failed checks, each failure with its fix; exit code 1 if any failed", () => {
    expect(formatReport([{ name: "runtime", ok: true, detail: "/x" }])).toEqual({
      text: "ok    runtime: /x\nEverything looks right.\n",
      code: 0,
    });
    const bad = formatReport([
      { name: "runtime", ok: true, detail: "/x" },
      { name: "store", ok: false, detail: "no answer", fix: "check store.url" },
    ]);
    expect(bad.code).toBe(1);
    expect(bad.text).toBe(
      "ok    runtime: /x\nFAIL  store: no answer\n      fix: check store.url\n1 problem(s) found.\n",
    );
  });

  it("finds the runtime's platform package (or its musl variant), and says how to fix a missing one", () => {
    const found = checkRuntime(
      (id) => {
        if (id === "@anthropic-ai/claude-agent-sdk-linux-x64-musl/package.json")
          return "/n/m/package.json";
        throw new Error("not found");
      },
      "linux",
      "x64",
    );
    expect(found).toMatchObject({ ok: true, detail: "/n/m" });
    const missing = checkRuntime(
      () => {
        throw new Error("not found");
      },
      "linux",
      "x64",
    );
    expect(missing.ok).toBe(false);
    expect(missing.fix).toMatch(/--omit=optional/);
  });

  it("credentials: a key or token variable, a claude login file, or nothing", async () => {
    expect(await checkCredentials({ ANTHROPIC_API_KEY: "sk" }, "linux")).toMatchObject({
      ok: true,
    });
    await mkdir(join(dir(), "cfg"));
    await writeFile(join(dir(), "cfg", ".credentials.json"), "{}");
    expect(
      await checkCredentials({ CLAUDE_CONFIG_DIR: join(dir(), "cfg") }, "linux"),
    ).toMatchObject({
      ok: true,
    });
    const none = await checkCredentials({ HOME: join(dir(), "nohome") }, "linux");
    expect(none.ok).toBe(false);
    expect(none.fix).toMatch(/claude/);
    // No login yet: the offline demo is the way to try it now.
    expect(none.fix).toContain("claude-a2a --scripted <rules.json>");
    expect(none.fix).toContain("npm run demo, or claude-a2a demo when installed");
  });

  it("workspace and store: writable directory, SQLite readable, memory always fine", async () => {
    expect((await checkWorkspace(dir())).ok).toBe(true);
    expect(await checkStore(config())).toMatchObject({ ok: true });
    expect(await checkStore(config({ store: { type: "memory" } }))).toMatchObject({ ok: true });
    await writeFile(join(dir(), "garbage.db"), "not a database at all, not even close".repeat(100));
    const corrupt = await checkStore(config({ store: { type: "sqlite", path: "garbage.db" } }));
    expect(corrupt.ok).toBe(false);
  });

  it("main --check prints the report and exits 1 on an invalid config, without starting a server", async () => {
    await mkdir(join(dir(), ".claude"));
    await writeFile(join(dir(), ".claude", "claude-a2a.config.json"), '{"sevrer": {}}');
    let out = "";
    const code = await main(["--check", "--cwd", dir()], {
      out: (t) => (out += t),
      err: (t) => (out += t),
    });
    expect(code).toBe(1);
    expect(out).toContain("FAIL  config: Invalid config file");
    expect(out).toContain('sevrer: unknown key, did you mean "server"?');
  });
});
