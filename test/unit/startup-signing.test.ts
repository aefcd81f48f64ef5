import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pino } from "pino";
import { resolveConfig } from "../../src/config/load.js";
import { startServer, StartupError } from "../../src/app/server.js";
import { useTempDir } from "../support/unit/temp-dir.js";

const dir = useTempDir("a2a-startup-");

describe("startup with a bad card-signing key", () => {
  it("stops before anything opens, with the key's problem as the message", async () => {
    const config = resolveConfig(
      {
        agentCard: {
          signing: { privateKeyFile: join(tmpdir(), `no-such-key-${process.pid}.pem`), kid: "k" },
        },
        store: { type: "memory" },
      },
      { file: "t.json", startDir: dir(), overrides: { cwd: dir(), port: 1 } },
    );
    const starting = startServer({ config, logger: pino({ level: "silent" }) });
    await expect(starting).rejects.toBeInstanceOf(StartupError);
    await expect(startServer({ config, logger: pino({ level: "silent" }) })).rejects.toThrow(
      /^agentCard\.signing: cannot read the private key file .*no-such-key/,
    );
    // No session map, pid file or store was created in the workspace.
    expect(existsSync(join(dir(), ".claude"))).toBe(false);
  });
});
