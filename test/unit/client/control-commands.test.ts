import { describe, expect, it } from "vitest";
import { parseControlCommand } from "../../../src/client/control-commands.js";

const tasks = ["t1", "t2", "t3"];

/** What a /rewind or /fork line sends: this metadata and text, in a new context for a fork. */
const rewind = (metadata: Record<string, unknown>, text: string) =>
  ({ kind: "send", metadata, text, newContext: false }) as const;
const fork = (forkOf: string, text: string) =>
  ({ kind: "send", metadata: { forkOf }, text, newContext: true }) as const;

describe("the terminal client's /rewind and /fork", () => {
  it.each<[string, readonly string[], unknown]>([
    ["hello", tasks, undefined],
    ["/new", tasks, undefined],
    ["/rewind try again", tasks, rewind({ rewindTo: "t3" }, "try again")],
    ["/rewind #2 try again", tasks, rewind({ rewindTo: "t2" }, "try again")],
    ["/rewind #-2 again", tasks, rewind({ rewindTo: "t2" }, "again")],
    ["/rewind t1 from the start", tasks, rewind({ rewindTo: "t1" }, "from the start")],
    ["/rewind --dry-run #1", tasks, rewind({ rewindTo: "t1", dryRun: true }, "(dry run)")],
    ["/fork #2 the other way", tasks, fork("t2", "the other way")],
    ["/fork other way", tasks, fork("t3", "other way")],
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
