import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logFormat, REDACT_PATHS } from "../../src/logging.js";

describe("logging", () => {
  it("JSON lines unless stdout is a terminal; LOG_FORMAT decides when set", () => {
    expect(logFormat({}, false)).toBe("json");
    expect(logFormat({}, true)).toBe("pretty");
    expect(logFormat({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormat({ LOG_FORMAT: "pretty" }, false)).toBe("pretty");
  });

  it("never writes credentials", () => {
    let out = "";
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, sink);
    logger.info({
      headers: { authorization: "Bearer abc123" },
      config: { token: "tok-456", password: "pw-789", apiKey: "sk-000" },
      env: { ANTHROPIC_API_KEY: "sk-ant-111" },
      taskId: "t1",
    });
    expect(out).toContain('"taskId":"t1"');
    for (const secret of ["abc123", "tok-456", "pw-789", "sk-000", "sk-ant-111"]) {
      expect(out).not.toContain(secret);
    }
  });
});
