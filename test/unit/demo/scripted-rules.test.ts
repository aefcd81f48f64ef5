import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseScriptedRules, ScriptedRulesError } from "../../../src/demo/scripted-rules.js";

const EXAMPLE = fileURLToPath(
  new URL("../../../docs/examples/scripted-rules.json", import.meta.url),
);
const rule = { match: { lastUserText: "hi" }, reply: { kind: "overloaded" } };

describe("parseScriptedRules", () => {
  it("reads the documented example: one rule per case, names kept", async () => {
    const rules = parseScriptedRules(await readFile(EXAMPLE, "utf8"), EXAMPLE);
    expect(rules.map((r) => r.name)).toEqual([
      "hello",
      "question",
      "painted",
      "bash",
      "counted",
      "write-inside",
      "written-inside",
      "write-outside",
      "written-outside",
      "refused",
    ]);
    expect(rules[2]?.match.toolResult).toBeInstanceOf(RegExp);
  });

  it.each([
    ["{ not json", /^r\.json: not JSON: /],
    ["[]", /^r\.json: not a rules file: /],
    [JSON.stringify({ rules: [] }), /^r\.json: no rules: /],
    [JSON.stringify({ rules: [{ ...rule, extra: 1 }] }), /^r\.json: not a rules file: .*extra/s],
    [
      JSON.stringify({ rules: [{ match: { lastUserTxt: "x" }, reply: rule.reply }] }),
      /lastUserTxt/,
    ],
    [
      JSON.stringify({ rules: [{ match: { lastUserText: "/(/" }, reply: rule.reply }] }),
      /^r\.json: not a rules file: rules\[0\]\.match\.lastUserText: /,
    ],
    [
      JSON.stringify({
        rules: [{ match: {}, reply: { kind: "message", content: [{ type: "txt" }] } }],
      }),
      /rules\[0\]\.reply/,
    ],
  ])("refuses %s with the file and the problem", (text, message) => {
    expect(() => parseScriptedRules(text, "r.json")).toThrow(ScriptedRulesError);
    expect(() => parseScriptedRules(text, "r.json")).toThrow(message);
  });
});
