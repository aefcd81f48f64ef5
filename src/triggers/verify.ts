import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether a webhook delivery comes from who holds the trigger's secret, one pure function per
 * `verify` kind (docs/triggers.md "Verification"). Every comparison is constant-time; nothing
 * here logs, and no answer carries the secret or what was expected.
 */

export type VerifyKind = "github" | "gitlab" | "hmac";

/** Request headers by lower-case name, as Node gives them. */
export type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The Standard Webhooks headers of `verify: "hmac"` (https://www.standardwebhooks.com). */
export const HMAC_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

const OK: Verdict = { ok: true };
const refused = (reason: string): Verdict => ({ ok: false, reason });

/** One header's value (the first, if repeated). */
export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : value?.[0];
}

/** Constant-time equality of two byte strings (length differences answered false at once). */
function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the request must carry for `kind`, checked against `secret`. Pure but for the clock given. */
export function verifyDelivery(
  kind: VerifyKind,
  secret: string,
  headers: Headers,
  body: Buffer,
  o: { readonly nowSeconds: number; readonly toleranceSeconds: number },
): Verdict {
  switch (kind) {
    case "github":
      return verifyGithub(secret, header(headers, "x-hub-signature-256"), body);
    case "gitlab":
      return verifyGitlab(secret, header(headers, "x-gitlab-token"));
    case "hmac":
      return verifyStandard(secret, headers, body, o);
  }
}

/** GitHub: `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the raw body with the secret. */
function verifyGithub(secret: string, signature: string | undefined, body: Buffer): Verdict {
  if (signature === undefined) return refused("no X-Hub-Signature-256 header");
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match?.[1]) return refused("X-Hub-Signature-256 is not sha256=<64 hex digits>");
  const expected = createHmac("sha256", secret).update(body).digest();
  return same(Buffer.from(match[1], "hex"), expected) ? OK : refused("wrong signature");
}

/** GitLab: `X-Gitlab-Token` is the secret itself. */
function verifyGitlab(secret: string, token: string | undefined): Verdict {
  if (token === undefined) return refused("no X-Gitlab-Token header");
  return same(Buffer.from(token), Buffer.from(secret)) ? OK : refused("wrong token");
}

/**
 * Standard Webhooks: `webhook-signature` holds one or more `v1,<base64>` (space-separated), each
 * an HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`; the timestamp (Unix seconds) must
 * be within the tolerance of now, so a captured delivery cannot be sent again later. A secret
 * written `whsec_<base64>` is that base64's bytes, as the standard has it; any other is its text.
 */
function verifyStandard(
  secret: string,
  headers: Headers,
  body: Buffer,
  o: { readonly nowSeconds: number; readonly toleranceSeconds: number },
): Verdict {
  const id = header(headers, HMAC_HEADERS.id);
  const timestamp = header(headers, HMAC_HEADERS.timestamp);
  const signatures = header(headers, HMAC_HEADERS.signature);
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    return refused("webhook-id, webhook-timestamp and webhook-signature are all required");
  }
  if (!/^\d{1,12}$/.test(timestamp.trim())) return refused("webhook-timestamp is not Unix seconds");
  const skew = Math.abs(o.nowSeconds - Number(timestamp));
  if (skew > o.toleranceSeconds) {
    return refused(`webhook-timestamp is ${skew} s from now (tolerance ${o.toleranceSeconds} s)`);
  }
  const key = secret.startsWith("whsec_")
    ? Buffer.from(secret.slice("whsec_".length), "base64")
    : Buffer.from(secret);
  const expected = createHmac("sha256", key)
    .update(`${id}.${timestamp.trim()}.`)
    .update(body)
    .digest();
  const matches = signatures
    .trim()
    .split(/\s+/)
    .some((entry) => {
      const [version, value] = entry.split(",", 2);
      return (
        version === "v1" && value !== undefined && same(Buffer.from(value, "base64"), expected)
      );
    });
  return matches ? OK : refused("wrong signature");
}
