import { describe, expect, it } from "vitest";
import {
  decideDelivery,
  retryAfterMs,
  type AttemptResult,
  type Decision,
} from "../../../../src/a2a/push/delivery-decision.js";

const policy = { attempts: 4, backoffMs: 500, maxRetryAfterMs: 30_000 };
const NOW = Date.parse("2026-01-01T00:00:00Z");
const answered = (status: number, retryAfter?: string): AttemptResult => ({
  kind: "answered",
  status,
  ...(retryAfter !== undefined && { retryAfter }),
});

describe("decideDelivery", () => {
  it.each<[string, AttemptResult, number, Decision]>([
    ["200", answered(200), 1, { kind: "delivered" }],
    ["204", answered(204), 3, { kind: "delivered" }],
    [
      "400: the receiver's no",
      answered(400),
      1,
      {
        kind: "drop",
        reason: "rejected",
        failure: "HTTP 400",
        status: 400,
      },
    ],
    [
      "401",
      answered(401),
      1,
      { kind: "drop", reason: "rejected", failure: "HTTP 401", status: 401 },
    ],
    [
      "404",
      answered(404),
      1,
      { kind: "drop", reason: "rejected", failure: "HTTP 404", status: 404 },
    ],
    ["408: retried", answered(408), 1, { kind: "retry", delayMs: 500, failure: "HTTP 408" }],
    [
      "429 without Retry-After: backoff",
      answered(429),
      2,
      {
        kind: "retry",
        delayMs: 1000,
        failure: "HTTP 429",
      },
    ],
    [
      "429 Retry-After: 1",
      answered(429, "1"),
      1,
      { kind: "retry", delayMs: 1000, failure: "HTTP 429" },
    ],
    [
      "503 Retry-After: 120, capped",
      answered(503, "120"),
      1,
      {
        kind: "retry",
        delayMs: 30_000,
        failure: "HTTP 503",
      },
    ],
    [
      "503 Retry-After as a date",
      answered(503, "Thu, 01 Jan 2026 00:00:05 GMT"),
      1,
      {
        kind: "retry",
        delayMs: 5000,
        failure: "HTTP 503",
      },
    ],
    [
      "500 ignores Retry-After",
      answered(500, "9"),
      3,
      {
        kind: "retry",
        delayMs: 2000,
        failure: "HTTP 500",
      },
    ],
    [
      "307: not followed, retried",
      answered(307),
      1,
      { kind: "retry", delayMs: 500, failure: "HTTP 307" },
    ],
    [
      "500 on the last attempt",
      answered(500),
      4,
      {
        kind: "drop",
        reason: "exhausted",
        failure: "HTTP 500",
        status: 500,
      },
    ],
    [
      "429 on the last attempt",
      answered(429, "1"),
      4,
      {
        kind: "drop",
        reason: "exhausted",
        failure: "HTTP 429",
        status: 429,
      },
    ],
    [
      "a network error",
      { kind: "failed", message: "ECONNREFUSED" },
      1,
      {
        kind: "retry",
        delayMs: 500,
        failure: "ECONNREFUSED",
      },
    ],
    [
      "a network error on the last attempt",
      { kind: "failed", message: "ECONNREFUSED" },
      4,
      {
        kind: "drop",
        reason: "exhausted",
        failure: "ECONNREFUSED",
      },
    ],
  ])("%s", (_name, result, attempt, decision) => {
    expect(decideDelivery(result, attempt, policy, NOW)).toEqual(decision);
  });
});

describe("retryAfterMs", () => {
  it.each<[string | undefined, number | undefined]>([
    [undefined, undefined],
    ["", undefined],
    ["0", 0],
    ["7", 7000],
    [" 3 ", 3000],
    ["Thu, 01 Jan 2026 00:01:00 GMT", 60_000],
    ["Wed, 31 Dec 2025 23:00:00 GMT", 0],
    ["soon", undefined],
    ["-1", undefined],
  ])("%j is %j ms", (header, ms) => {
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });
});
