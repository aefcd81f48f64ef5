import { describe, expect, it } from "vitest";
import { refuse, type Checked } from "../../../src/common/refusal.js";

describe("refuse", () => {
  it.each([
    ["a sentence", "the webhook URL has no host"],
    ["a richer reason", { kind: "unavailable", cause: "ECONNREFUSED" }],
  ])("is the one refused shape, { ok: false, reason } (%s)", (_name, reason) => {
    expect(refuse(reason)).toEqual({ ok: false, reason });
  });

  it("narrows a Checked by its ok", () => {
    const read = (c: Checked<{ readonly n: number }>): string =>
      c.ok ? `yes ${c.n}` : `no: ${c.reason}`;
    expect([read({ ok: true, n: 1 }), read(refuse("too big"))]).toEqual(["yes 1", "no: too big"]);
  });
});
