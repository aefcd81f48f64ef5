import { describe, expect, it } from "vitest";
import { pointAfter, pointBefore } from "../../../src/claude/resume-points.js";

/** A transcript line: `p:<uuid>` a prompt, `a:` an assistant message, `t:` a tool result. */
function line(spec: string, parent: string | null): string {
  const [kind, uuid] = spec.split(":") as [string, string];
  const base = { uuid, parentUuid: parent };
  if (kind === "p") return JSON.stringify({ ...base, type: "user", message: { content: "hi" } });
  if (kind === "m")
    return JSON.stringify({ ...base, type: "user", isMeta: true, message: { content: "note" } });
  if (kind === "t") {
    return JSON.stringify({
      ...base,
      type: "user",
      message: { content: [{ type: "tool_result" }] },
    });
  }
  return JSON.stringify({ ...base, type: "assistant", message: { content: [] } });
}

/** A linear chain of entries, plus a line with no uuid and a torn one (both skipped). */
const linear = (...specs: string[]) =>
  [
    JSON.stringify({ type: "summary", summary: "x" }),
    ...specs.map((s, i) => line(s, i === 0 ? null : (specs[i - 1]?.split(":")[1] ?? null))),
    "{torn",
  ].join("\n");

const conversation = linear(
  "p:p1",
  "a:a1",
  "p:p2",
  "a:a2",
  "t:t2",
  "a:a2b",
  "m:m1",
  "p:p3",
  "a:a3",
);

describe("pointBefore: just before a task's prompt", () => {
  it.each([
    ["the first prompt", conversation, "p1", { kind: "start" }],
    ["the second", conversation, "p2", { kind: "at", uuid: "a1" }],
    ["the third (after a tool round and a note)", conversation, "p3", { kind: "at", uuid: "m1" }],
    ["an unknown prompt", conversation, "zz", { kind: "missing" }],
    ["an empty transcript", "", "p1", { kind: "missing" }],
  ])("%s", (_name, transcript, uuid, expected) => {
    expect(pointBefore(transcript, uuid)).toEqual(expected);
  });

  it("follows the branch written last: a prompt rewound away is missing", () => {
    // p3 was rewound away: p4 follows a1, written after.
    const branched = [conversation, line("p:p4", "a1"), line("a:a4", "p4")].join("\n");
    expect(pointBefore(branched, "p3")).toEqual({ kind: "missing" });
    expect(pointBefore(branched, "p4")).toEqual({ kind: "at", uuid: "a1" });
    // The end of the last task is the branch's last entry, not the one rewound away.
    expect(pointAfter(branched, "p4")).toEqual({ kind: "at", uuid: "a4" });
  });
});

describe("pointAfter: the end of a task", () => {
  it.each([
    [
      "a task followed by another",
      conversation,
      "p2",
      new Set<string>(),
      { kind: "at", uuid: "m1" },
    ],
    ["the first task", conversation, "p1", new Set<string>(), { kind: "at", uuid: "a1" }],
    ["the last task", conversation, "p3", new Set<string>(), { kind: "at", uuid: "a3" }],
    [
      "its own steering message is inside it",
      conversation,
      "p2",
      new Set(["p3"]),
      { kind: "at", uuid: "a3" },
    ],
    ["an unknown prompt", conversation, "zz", new Set<string>(), { kind: "missing" }],
  ])("%s", (_name, transcript, uuid, own, expected) => {
    expect(pointAfter(transcript, uuid, own)).toEqual(expected);
  });
});
