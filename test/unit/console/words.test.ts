import { describe, expect, it } from "vitest";
import { duration, outcomeLine, plainOf, statusWords, titleOf } from "../../../console/words.js";
import { EMPTY_USAGE } from "../../../src/contract/usage.js";
import { TEXT } from "../../../src/contract/texts.js";

describe("titleOf: a conversation titled by its first prompt", () => {
  it.each([
    ["Fix the login bug", 60, "Fix the login bug"],
    ["  Fix   the\nlogin bug  ", 60, "Fix the login bug"],
    [
      "Refactor the session pool so that spare processes are kept warm",
      30,
      "Refactor the session pool so…",
    ],
    ["abcdefghijklmnopqrstuvwxyz", 10, "abcdefghi…"],
    ["", 60, ""],
    [undefined, 60, ""],
  ])("%j at %d → %j", (prompt, max, title) => {
    expect(titleOf(prompt, max)).toBe(title);
    expect(titleOf(prompt, max).length).toBeLessThanOrEqual(max);
  });
});

describe("duration", () => {
  it.each([
    [0, "0 ms"],
    [850, "850 ms"],
    [1000, "1 s"],
    [12_400, "12 s"],
    [60_000, "1 min"],
    [185_000, "3 min 5 s"],
    [3_600_000, "1 h"],
    [7_440_000, "2 h 4 min"],
  ])("%d ms → %s", (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});

describe("outcomeLine: how a task went, in words", () => {
  const usage = { ...EMPTY_USAGE, costUsd: 0.004, durationMs: 12_000 };
  it.each([
    ["completed", usage, "Completed in 12 s · $0.004"],
    ["completed", { ...usage, durationMs: 0 }, "Completed · $0.004"],
    ["failed", usage, "Failed in 12 s · $0.004"],
    ["completed", undefined, "Completed"],
    ["input-required", undefined, "Waiting for your answer"],
    ["working", undefined, "Working"],
    ["canceled", undefined, "Canceled"],
    ["mystery", undefined, "mystery"],
  ])("%s %j → %s", (state, u, line) => {
    expect(outcomeLine(state, u)).toBe(line);
  });
});

describe("statusWords: everyday words for the protocol's kinds", () => {
  it.each([
    ["ask_user_question", "input-required", "Which colour?", "Asked you a question"],
    [
      "permission_request",
      "input-required",
      "Claude wants to use Write.",
      "Asked permission: wants to use Write.",
    ],
    ["resumed", "working", TEXT.resumed, "Went on with your answer"],
    [
      "resumed",
      "working",
      TEXT.resumedByOperator("ops"),
      "Resumed with the answer of operator ops.",
    ],
    ["queued", "submitted", TEXT.queued, "Waiting for the conversation's previous task to end"],
    ["steered", "working", "Also the changelog", "You steered: Also the changelog"],
    [undefined, "failed", "Stopped: boom", "Stopped: boom"],
    [undefined, "completed", "", "Completed"],
  ])("%s (%s) %j → %j", (kind, state, text, words) => {
    expect(statusWords(kind, state, text)).toBe(words);
  });
});

describe("plainOf: an answer's summary line without Markdown marks", () => {
  it.each([
    ["Done: **all 3 tests pass**.", "Done: all 3 tests pass."],
    ["- ran `npm test`\n- wrote it", "ran npm test\nwrote it"],
    ["# Title\nSee [the docs](https://x.org).", "Title\nSee the docs."],
    ["```ts\nconst x = 1;\n```", "const x = 1;\n"],
  ])("%j → %j", (md, plain) => {
    expect(plainOf(md)).toBe(plain);
  });
});
