import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import {
  createLogger,
  escapeControlChars,
  logFormat,
  logLevel,
  REDACT_PATHS,
} from "../../../src/common/logging.js";

/** A stream that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

describe("logging", () => {
  it("JSON lines unless stdout is a terminal; LOG_FORMAT decides when set", () => {
    expect(logFormat({}, false)).toBe("json");
    expect(logFormat({}, true)).toBe("pretty");
    expect(logFormat({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormat({ LOG_FORMAT: "pretty" }, false)).toBe("pretty");
  });

  it("takes the level from the config file unless LOG_LEVEL is set; a bad LOG_LEVEL is undefined", () => {
    expect(logLevel({}, "warn")).toBe("warn");
    expect(logLevel({ LOG_LEVEL: "" }, "warn")).toBe("warn");
    expect(logLevel({ LOG_LEVEL: "debug" }, "warn")).toBe("debug");
    expect(logLevel({ LOG_LEVEL: " trace " }, "info")).toBe("trace");
    expect(logLevel({ LOG_LEVEL: "loud" }, "info")).toBeUndefined();
  });

  it("reads log.level from the config file, info by default, and names the levels when wrong", () => {
    const opts = { file: "/w/.claude/claude-a2a.config.json", startDir: "/w" };
    expect(resolveConfig({}, opts).log.level).toBe("info");
    expect(resolveConfig({ log: { level: "debug" } }, opts).log.level).toBe("debug");
    expect(() => resolveConfig({ log: { level: "loud" } }, opts)).toThrow(
      /log\.level: expected one of fatal, error, warn, info, debug, trace, silent/,
    );
    expect(() => resolveConfig({ log: { levle: "debug" } }, opts)).toThrow(/log\.levle/);
  });

  it("never writes credentials", () => {
    const out = sink();
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, out.stream);
    logger.info({
      headers: {
        authorization: "Bearer abc123",
        cookie: "c=cookie-222",
        "x-a2a-notification-token": "push-333",
      },
      config: { token: "tok-456", password: "pw-789", apiKey: "sk-000", tokens: ["t-444"] },
      push: { credentials: "cred-555" },
      env: { ANTHROPIC_API_KEY: "sk-ant-111" },
      ANTHROPIC_AUTH_TOKEN: "auth-666",
      taskId: "t1",
    });
    expect(out.text()).toContain('"taskId":"t1"');
    const secrets = ["abc123", "cookie-222", "push-333", "tok-456", "pw-789", "sk-000", "t-444"];
    for (const secret of [...secrets, "cred-555", "sk-ant-111", "auth-666"]) {
      expect(out.text()).not.toContain(secret);
    }
  });

  it("escapes control characters and line separators, so no string can end a line", () => {
    expect(escapeControlChars('a\nb\r\tc\u0000d\u2028e\u001b[31m"')).toBe(
      'a\\nb\\r\\tc\\u0000d\\u2028e\\u001b[31m"',
    );
    expect(escapeControlChars("plain: é ✓")).toBe("plain: é ✓");
  });

  it.each(["json", "pretty"] as const)(
    "in %s mode, a client's newline in a message or a field never starts a new record",
    (format) => {
      const out = sink();
      const logger = createLogger({ level: "info", format, destination: out.stream });
      const forged = 'x\n{"level":60,"msg":"forged"}\n[12:00:00.000] FATAL: forged';
      logger.warn(`Reference task ${forged} not found.`);
      logger.info({ path: `/a2a/rest/tasks/${forged}`, error: { message: forged } }, "request");
      const lines = out.text().split("\n").filter(Boolean);
      expect(lines).toHaveLength(2);
      expect(out.text()).not.toMatch(/^\{"level":60/m);
      expect(out.text()).not.toMatch(/^\[12:00:00.000\] FATAL/m);
    },
  );
});
