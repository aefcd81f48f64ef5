/**
 * The rules file of `claude-a2a --scripted <rules.json>`: the scripted model's JSON script
 * (`fake-model/script-file.ts`, documented in docs/demo.md), read strictly. A file that cannot
 * be read, is not JSON, or is not a script with at least one rule is an error naming the file
 * and the problem: the server does not start on it.
 */
import { readFile } from "node:fs/promises";
import { loadScript } from "./fake-model/script-file.js";
import type { Rule } from "./fake-model/types.js";

export class ScriptedRulesError extends Error {
  override readonly name = "ScriptedRulesError";
}

/** The rules of a rules file's text; throws a `ScriptedRulesError` naming `file`. Pure. */
export function parseScriptedRules(text: string, file: string): Rule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScriptedRulesError(`${file}: not JSON: ${(err as Error).message}`);
  }
  let rules: Rule[];
  try {
    rules = loadScript(json);
  } catch (err) {
    const problem = (err as Error).message.replace(/^invalid fake-model script:\n/, "");
    throw new ScriptedRulesError(`${file}: not a rules file: ${problem}`);
  }
  if (rules.length === 0) {
    throw new ScriptedRulesError(`${file}: no rules: "rules" must list at least one`);
  }
  return rules;
}

/** Reads and checks a rules file. */
export async function readScriptedRules(file: string): Promise<Rule[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : code;
    throw new ScriptedRulesError(`${file}: cannot read it: ${why ?? (err as Error).message}`);
  }
  return parseScriptedRules(text, file);
}
