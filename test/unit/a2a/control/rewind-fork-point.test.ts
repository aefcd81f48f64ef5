import { describe, expect, it } from "vitest";
import { resumePointOf } from "../../../../src/a2a/control/rewind-fork-point.js";
import { CONTROL_TEXT } from "../../../../src/contract/control-texts.js";

const entry = (uuid: string, parentUuid: string | null, type: "user" | "assistant") =>
  JSON.stringify({
    uuid,
    parentUuid,
    type,
    message: { content: type === "user" ? "a prompt" : [] },
  });

/** p1 a1 p2 a2, then a rewind to before p2: p3 a3 hang off a1 (written last). */
const rewound = [
  entry("p1", null, "user"),
  entry("a1", "p1", "assistant"),
  entry("p2", "a1", "user"),
  entry("a2", "p2", "assistant"),
  entry("p3", "a1", "user"),
  entry("a3", "p3", "assistant"),
].join("\n");

describe("resumePointOf: where a rewind or fork of a task resumes its session", () => {
  it.each<[string, "rewind" | "fork", string, string, unknown]>([
    ["a rewind to the first task", "rewind", "p1", rewound, { ok: true, point: { kind: "start" } }],
    [
      "a rewind to the task of the branch",
      "rewind",
      "p3",
      rewound,
      { ok: true, point: { kind: "at", uuid: "a1" } },
    ],
    [
      "a fork of the last task: the end of the branch",
      "fork",
      "p3",
      rewound,
      { ok: true, point: { kind: "at", uuid: "a3" } },
    ],
    [
      "a fork of the first task: before the next prompt",
      "fork",
      "p1",
      rewound,
      { ok: true, point: { kind: "at", uuid: "a1" } },
    ],
    [
      "a rewind to a task rewound away",
      "rewind",
      "p2",
      rewound,
      { ok: false, reason: CONTROL_TEXT.notInConversation("t") },
    ],
    [
      "a fork of a task rewound away",
      "fork",
      "p2",
      rewound,
      { ok: false, reason: CONTROL_TEXT.notInConversation("t") },
    ],
    [
      "a session with no transcript here",
      "fork",
      "p1",
      "",
      { ok: false, reason: CONTROL_TEXT.noTranscript("t") },
    ],
    [
      "a blank transcript",
      "rewind",
      "p1",
      "\n\n",
      { ok: false, reason: CONTROL_TEXT.noTranscript("t") },
    ],
  ])("%s", (_name, kind, prompt, transcript, expected) => {
    expect(resumePointOf(kind, "t", prompt, transcript)).toEqual(expected);
  });
});
