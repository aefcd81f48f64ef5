import { describe, expect, it } from "vitest";
import { parseControlCommand } from "../../../src/client/control-commands.js";

const tasks = ["t1", "t2", "t3"];

describe("the terminal client's /rewind and /fork", () => {
  it.each<[string, readonly string[], unknown]>([
    ["hello", tasks, undefined],
    ["/new", tasks, undefined],
    [
      "/rewind try again",
      tasks,
      { kind: "send", metadata: { rewindTo: "t3" }, text: "try again", newContext: false },
    ],
    [
      "/rewind #2 try again",
      tasks,
      { kind: "send", metadata: { rewindTo: "t2" }, text: "try again", newContext: false },
    ],
    [
      "/rewind #-2 again",
      tasks,
      { kind: "send", metadata: { rewindTo: "t2" }, text: "again", newContext: false },
    ],
    [
      "/rewind t1 from the start",
      tasks,
      { kind: "send", metadata: { rewindTo: "t1" }, text: "from the start", newContext: false },
    ],
    [
      "/rewind --dry-run #1",
      tasks,
      {
        kind: "send",
        metadata: { rewindTo: "t1", dryRun: true },
        text: "(dry run)",
        newContext: false,
      },
    ],
    [
      "/fork #2 the other way",
      tasks,
      { kind: "send", metadata: { forkOf: "t2" }, text: "the other way", newContext: true },
    ],
    [
      "/fork other way",
      tasks,
      { kind: "send", metadata: { forkOf: "t3" }, text: "other way", newContext: true },
    ],
  ])("%s", (line, known, expected) => {
    expect(parseControlCommand(line, known)).toEqual(expected);
  });

  it.each([
    ["/rewind", tasks],
    ["/fork #1", tasks],
    ["/rewind do it", []],
  ])("%s: the usage, nothing sent", (line, known) => {
    expect(parseControlCommand(line, known)?.kind).toBe("usage");
  });
});
