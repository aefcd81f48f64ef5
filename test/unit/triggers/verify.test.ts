import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyDelivery, type Headers } from "../../../src/triggers/verify.js";

const body = Buffer.from('{"action":"labeled"}');
const SECRET = "s3cret";
const hex = (secret: string, data: Buffer | string) =>
  createHmac("sha256", secret).update(data).digest("hex");
const clock = { nowSeconds: 1_700_000_000, toleranceSeconds: 300 };

/** Standard Webhooks headers signing `body` at `ts` with `key`. */
function standard(id: string, ts: number, key: Buffer | string = SECRET): Headers {
  const sig = createHmac("sha256", key).update(`${id}.${ts}.`).update(body).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": `v1,${sig}` };
}

describe("verifyDelivery", () => {
  it.each<[string, Headers, boolean]>([
    ["github: right signature", { "x-hub-signature-256": `sha256=${hex(SECRET, body)}` }, true],
    [
      "github: upper-case hex",
      { "x-hub-signature-256": `sha256=${hex(SECRET, body).toUpperCase()}` },
      true,
    ],
    ["github: other secret", { "x-hub-signature-256": `sha256=${hex("other", body)}` }, false],
    ["github: other body", { "x-hub-signature-256": `sha256=${hex(SECRET, "{}")}` }, false],
    ["github: sha1 form", { "x-hub-signature-256": `sha1=${hex(SECRET, body)}` }, false],
    ["github: truncated", { "x-hub-signature-256": `sha256=${hex(SECRET, body).slice(2)}` }, false],
    ["github: missing", {}, false],
  ])("%s", (_name, headers, ok) => {
    expect(verifyDelivery("github", SECRET, headers, body, clock).ok).toBe(ok);
  });

  it.each<[string, Headers, boolean]>([
    ["gitlab: the token", { "x-gitlab-token": SECRET }, true],
    ["gitlab: another token", { "x-gitlab-token": "s3creT" }, false],
    ["gitlab: a prefix of it", { "x-gitlab-token": "s3cre" }, false],
    ["gitlab: missing", {}, false],
  ])("%s", (_name, headers, ok) => {
    expect(verifyDelivery("gitlab", SECRET, headers, body, clock).ok).toBe(ok);
  });

  const now = clock.nowSeconds;
  it.each<[string, Headers, boolean]>([
    ["hmac: signed now", standard("msg_1", now), true],
    ["hmac: at the tolerance's edge", standard("msg_1", now - 300), true],
    ["hmac: past the tolerance", standard("msg_1", now - 301), false],
    ["hmac: in the future past it", standard("msg_1", now + 301), false],
    [
      "hmac: one of several signatures",
      {
        ...standard("msg_1", now),
        "webhook-signature": `v1,AAAA ${String(standard("msg_1", now)["webhook-signature"])}`,
      },
      true,
    ],
    ["hmac: signed id differs", { ...standard("msg_1", now), "webhook-id": "msg_2" }, false],
    ["hmac: not seconds", { ...standard("msg_1", now), "webhook-timestamp": "yesterday" }, false],
    ["hmac: no signature", { "webhook-id": "msg_1", "webhook-timestamp": String(now) }, false],
  ])("%s", (_name, headers, ok) => {
    expect(verifyDelivery("hmac", SECRET, headers, body, clock).ok).toBe(ok);
  });

  it("hmac: a whsec_ secret is its base64's bytes", () => {
    const key = Buffer.from("raw key bytes");
    const secret = `whsec_${key.toString("base64")}`;
    expect(verifyDelivery("hmac", secret, standard("m", now, key), body, clock).ok).toBe(true);
    expect(verifyDelivery("hmac", secret, standard("m", now, secret), body, clock).ok).toBe(false);
  });

  it("never says the secret or the expected signature", () => {
    const verdict = verifyDelivery(
      "github",
      SECRET,
      { "x-hub-signature-256": "sha256=00" },
      body,
      clock,
    );
    expect(JSON.stringify(verdict)).not.toContain(SECRET);
    expect(JSON.stringify(verdict)).not.toContain(hex(SECRET, body));
  });
});
