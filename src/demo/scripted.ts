/**
 * The model side of `claude-a2a --scripted <rules.json>`: the scripted model on a loopback port
 * with the file's rules, and what the server runs with it: the runtime's environment (no
 * credential of the user's, pointed at the scripted model, its own config and temporary
 * folders) and a state folder for the session map and pid file, all in one temporary directory
 * removed at the end. The project's own claude-a2a state, transcripts and login are never read
 * nor written (docs/demo.md, "Your own project, offline").
 */
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ScriptedRuntime } from "../app/scripted-config.js";
import { FakeModel } from "./fake-model/server.js";
import { reply, text } from "./fake-model/rules.js";
import { demoEnv } from "./env.js";
import { readScriptedRules } from "./scripted-rules.js";

/** What a message no rule matches gets: which file to add a rule to. */
export const noRuleText = (file: string): string =>
  `[scripted model] no rule of ${basename(file)} matches this message.`;

/** Starts the scripted model on `file`'s rules; a bad file throws before anything starts. */
export async function startScripted(file: string): Promise<ScriptedRuntime> {
  const rules = await readScriptedRules(file);
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-scripted-")));
  const remove = () => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  try {
    const configDir = join(root, "claude-config");
    const tmpDir = join(root, "tmp");
    await mkdir(configDir);
    await mkdir(tmpDir);
    // keep 0: nothing reads the record, and a day's session would otherwise keep every request.
    const model = await FakeModel.start({
      rules,
      fallback: reply(text(noRuleText(file))),
      keep: 0,
    });
    return {
      modelUrl: model.url,
      env: demoEnv(process.env, { modelUrl: model.url, configDir, tmpDir }),
      stateDir: join(root, "state"),
      close: async () => {
        await model.close();
        await remove();
      },
    };
  } catch (err) {
    await remove();
    throw err;
  }
}
