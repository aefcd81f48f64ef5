import { describe, expect, it } from "vitest";
import {
  refusalMessage,
  type AuthRefusal,
  type TokenProblem,
} from "../../../src/contract/auth-messages.js";
import { docPage } from "../../support/docs/pages.js";

/** docs/security.md's Refusals table quotes every refusal text; this holds the two to each other. */
const SECURITY = docPage("security.md");
const table = SECURITY.slice(
  SECURITY.indexOf("## Refusals"),
  SECURITY.indexOf("## What each caller sees"),
);
const quoted = [...table.matchAll(/^\| [45]\d\d *\|[^|]*\|[^|]*\| `([^`]+)`/gm)].map(
  (m) => m[1] ?? "",
);

/** A documented text as a pattern: `<placeholder>` stands for any text. */
const pattern = (text: string) =>
  new RegExp(
    `^${text
      .split(/(<[^>]+>)/)
      .map((p) => (/^<[^>]+>$/.test(p) ? "[\\s\\S]*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  );

const problems: TokenProblem[] = [
  { kind: "unknown" },
  { kind: "not_bearer" },
  { kind: "malformed" },
  { kind: "expired" },
  { kind: "not_yet_valid" },
  { kind: "wrong_issuer", expected: "https://idp" },
  { kind: "wrong_audience", expected: ["a2a"] },
  { kind: "algorithm", alg: "none", accepted: ["ES256", "RS256"] },
  { kind: "unknown_key", kid: "k1" },
  { kind: "unknown_key", kid: undefined },
  { kind: "bad_signature" },
  { kind: "claim", claim: "exp" },
  { kind: "no_subject", claim: "sub" },
];
const refusals: AuthRefusal[] = [
  { kind: "missing" },
  { kind: "login_forbidden" },
  ...problems.map((problem) => ({ kind: "invalid_token" as const, problem })),
  { kind: "insufficient_scope", missing: ["a2a.call"] },
  { kind: "unavailable", cause: "ECONNREFUSED" },
];

describe("the docs' Refusals table and the auth texts", () => {
  it.each(refusals.map((r) => [JSON.stringify(r), refusalMessage(r)]))(
    "%s is quoted in the docs",
    (_name, message) => {
      expect(quoted.filter((q) => pattern(q).test(message))).not.toEqual([]);
    },
  );

  it("quotes no text the server does not say", () => {
    const said = refusals.map(refusalMessage);
    for (const q of quoted)
      expect(
        said.some((m) => pattern(q).test(m)),
        q,
      ).toBe(true);
    expect(quoted).toHaveLength(refusals.length);
  });

  it("never tells the caller the cause of an outage", () => {
    expect(refusalMessage({ kind: "unavailable", cause: "ECONNREFUSED 10.0.0.1" })).not.toContain(
      "10.0.0.1",
    );
  });
});
