import { describe, expect, it } from "vitest";
import {
  branchEnd,
  lastPromptLine,
  pointAfter,
  pointBefore,
} from "../../../src/claude/resume-points.js";

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

/** The runtime's record of where a plain resume goes (no uuid of its own). */
const record = (leaf: string) => JSON.stringify({ type: "last-prompt", leafUuid: leaf });

/**
 * A conversation rewound to a1 (p2's task rewound away, then p3's prompt from a1), as the
 * runtime writes it: each turn's record after it, the branch rewound away's written as its
 * process closed for the rewind.
 */
const rewound = (...tail: string[]) =>
  [
    line("p:p1", null),
    line("a:a1", "p1"),
    record("a1"),
    line("p:p2", "a1"),
    line("a:a2", "p2"),
    record("a2"),
    line("p:p3", "a1"),
    line("a:a3", "p3"),
    ...tail,
  ].join("\n");

describe("branchEnd: whether a plain resume continues the branch a rewind began with p3", () => {
  it.each([
    [
      "the newest record names the branch rewound away (all SIGKILLed): unrecorded, its end",
      rewound(),
      { kind: "unrecorded", leaf: "a3" },
    ],
    ["its process recorded the branch's end", rewound(record("a3")), { kind: "recorded" }],
    [
      "a record on the branch, behind its end: the runtime's own",
      rewound(record("p3"), line("a:a3b", "a3")),
      { kind: "recorded" },
    ],
    [
      "a record of the rewind point is not the branch's",
      rewound(record("a1")),
      { kind: "unrecorded", leaf: "a3" },
    ],
    [
      "a later turn on the branch (killed in a tool round), not recorded: its last entry",
      rewound(line("p:p4", "a3"), line("a:a4", "p4"), line("t:t4", "a4")),
      { kind: "unrecorded", leaf: "t4" },
    ],
    [
      "its prompt never written (killed while its process started): unwritten",
      rewound().split("\n").slice(0, 6).join("\n"),
      { kind: "unwritten" },
    ],
    ["no transcript", "", { kind: "unwritten" }],
  ])("%s", (_name, transcript, expected) => {
    expect(branchEnd(transcript, "p3")).toEqual(expected);
  });

  it("the record written for it is the runtime's line, and makes the branch recorded", () => {
    const line = lastPromptLine("s-1", "a3");
    expect(JSON.parse(line)).toEqual({ type: "last-prompt", leafUuid: "a3", sessionId: "s-1" });
    // The runtime's loader finds its records by this prefix.
    expect(line.startsWith('{"type":"last-prompt"')).toBe(true);
    expect(branchEnd(`${rewound()}\n${line}`, "p3")).toEqual({ kind: "recorded" });
  });
});
