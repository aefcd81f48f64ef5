import { describe, expect, it } from "vitest";
import {
  beforeEdits,
  editLines,
  editsOf,
  samePath,
  type Edit,
} from "../../../console/edit-diff.js";
import { applyEvent, modelOf } from "../../../console/task-model.js";
import { status } from "../../../src/contract/statuses.js";
import { newTask } from "../../../src/contract/messages.js";
import { ev, fileEvent, firstMessage, ref } from "./support/task-events.js";

const edit = (oldString: string, newString: string, replaceAll = false): Edit => ({
  oldString,
  newString,
  replaceAll,
});

describe("editsOf", () => {
  it.each<[string, unknown, Edit[] | undefined]>([
    ["Edit", { file_path: "a", old_string: "x", new_string: "y" }, [edit("x", "y")]],
    [
      "Edit",
      { file_path: "a", old_string: "x", new_string: "y", replace_all: true },
      [edit("x", "y", true)],
    ],
    [
      "MultiEdit",
      {
        file_path: "a",
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "c", new_string: "d" },
        ],
      },
      [edit("a", "b"), edit("c", "d")],
    ],
    ["MultiEdit", { file_path: "a", edits: [{ old_string: "a" }] }, undefined],
    ["MultiEdit", { file_path: "a", edits: [] }, undefined],
    ["Edit", { file_path: "a", old_string: "x" }, undefined],
    ["Write", { file_path: "a", content: "x" }, undefined],
    ["Edit", undefined, undefined],
  ])("%s %j", (tool, input, edits) => {
    expect(editsOf(tool, input)).toEqual(edits);
  });
});

describe("samePath", () => {
  it.each<[unknown, string, boolean]>([
    ["notes.md", "notes.md", true],
    ["/work/repo/src/a.ts", "src/a.ts", true],
    ["/work/repo/src/a.ts", "/work/repo/src/a.ts", true],
    ["/work/repo/xsrc/a.ts", "src/a.ts", false],
    ["/work/repo/src/b.ts", "src/a.ts", false],
    [undefined, "a.ts", false],
    ["", "", false],
  ])("%j ~ %j: %s", (filePath, path, same) => {
    expect(samePath(filePath, path)).toBe(same);
  });
});

describe("beforeEdits", () => {
  it.each<[string, string, Edit[], string | undefined]>([
    ["one edit undone", "a = 1\nb = 3\n", [edit("b = 2", "b = 3")], "a = 1\nb = 2\n"],
    ["edits undone last first", "x\ny2\nz\n", [edit("y", "y1"), edit("y1", "y2")], "x\ny\nz\n"],
    ["a deletion undone", "a\nc\n", [edit("b\n", "")], undefined],
    ["new text twice: not for sure", "b = 3\nb = 3\n", [edit("b = 2", "b = 3")], undefined],
    ["new text gone (written again since)", "other\n", [edit("b = 2", "b = 3")], undefined],
    ["replace_all undone", "n + n\n", [edit("m", "n", true)], "m + m\n"],
    ["replace_all whose old text is still there", "mn\n", [edit("m", "mn", true)], undefined],
    ["$ patterns are text", "x = $1\n", [edit("x = $&", "x = $1")], "x = $&\n"],
  ])("%s", (_, after, edits, before) => {
    expect(beforeEdits(after, edits)).toBe(before);
  });
});

describe("editLines", () => {
  it("shows each edit's old lines out and new lines in", () => {
    expect(editLines([edit("a\nb", "a\nc")])).toEqual([
      { op: "same", text: "a" },
      { op: "del", text: "b" },
      { op: "add", text: "c" },
    ]);
    expect(editLines([edit("x", "y"), edit("p", "q")]).map((l) => l.op)).toEqual([
      "hunk",
      "del",
      "add",
      "hunk",
      "del",
      "add",
    ]);
  });
});

describe("the task model diffs an Edit of a file that existed before the task", () => {
  /** app.txt (there before the task), as a call of `tool` leaves it. */
  const appFile = (content: string, tool: string) =>
    fileEvent("app.txt", content, "modified", tool);
  const start = () => modelOf(newTask(ref, firstMessage("Edit it")));
  const editCall = (input: unknown) =>
    ev({
      $case: "statusUpdate",
      value: status.toolUse(ref, "Edit", "tu1", { input, truncated: false }),
    });

  it("from the call's old and new strings: the file before, then the diff", () => {
    const model = start();
    applyEvent(
      model,
      editCall({ file_path: "/work/repo/app.txt", old_string: "b = 2", new_string: "b = 3" }),
    );
    applyEvent(model, appFile("a = 1\nb = 3\nc = 4\n", "Edit"));
    const view = model.files.get("file:app.txt");
    expect(view?.previous).toBe("a = 1\nb = 2\nc = 4\n");
    expect(view?.edits).toBeUndefined();
  });

  it("the edit's own lines when it cannot be undone on the file", () => {
    const model = start();
    applyEvent(model, editCall({ file_path: "app.txt", old_string: "x", new_string: "y" }));
    applyEvent(model, appFile("y\ny\n", "Edit"));
    const view = model.files.get("file:app.txt");
    expect(view?.previous).toBeUndefined();
    expect(view?.edits).toEqual([edit("x", "y")]);
  });

  it("no call on that path: the whole file, as before", () => {
    const model = start();
    applyEvent(model, editCall({ file_path: "other.txt", old_string: "x", new_string: "y" }));
    applyEvent(model, appFile("y\n", "Edit"));
    const view = model.files.get("file:app.txt");
    expect(view?.previous).toBeUndefined();
    expect(view?.edits).toBeUndefined();
  });
});
