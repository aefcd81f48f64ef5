import { describe, expect, it } from "vitest";
import { knownKeysOnly } from "../../../bench/config-keys.js";

const schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    model: { type: "string" },
    sessions: {
      type: "object",
      additionalProperties: false,
      properties: { maxLive: { type: "integer" }, idleTimeoutMs: { type: "integer" } },
    },
    claude: { type: "object", additionalProperties: {}, properties: { env: {} } },
  },
};

describe("knownKeysOnly: a config an earlier build accepts", () => {
  it("drops the keys its schema does not name, at any depth, and says which", () => {
    const out = knownKeysOnly(
      {
        model: "m",
        sessions: { maxLive: 16, spares: 0, idleTimeoutMs: 1 },
        store: { type: "memory" },
        claude: { env: { A: "1" }, anything: true },
      },
      schema,
    );
    expect(out.config).toEqual({
      model: "m",
      sessions: { maxLive: 16, idleTimeoutMs: 1 },
      claude: { env: { A: "1" }, anything: true },
    });
    expect(out.dropped).toEqual(["sessions.spares", "store"]);
  });

  it("keeps everything without a schema", () => {
    const config = { sessions: { spares: 0 } };
    expect(knownKeysOnly(config, undefined)).toEqual({ config, dropped: [] });
  });
});
