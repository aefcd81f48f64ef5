/**
 * The scripted model as a standalone process, so a person can run the real server against it:
 *   npm run fake-model -- --port 4000 [--script rules.json]
 *   ANTHROPIC_BASE_URL=http://127.0.0.1:4000 ANTHROPIC_API_KEY=x claude-a2a
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { FakeModel, reply, text } from "./harness/model.js";
import type { Rule } from "./harness/model.js";
import { loadScript } from "./fake-model/script-file.js";

const USAGE = `Usage: npm run fake-model -- [--port N] [--host H] [--script FILE]

A scripted Anthropic Messages API for offline runs of Claude Code.
  --port N       port to listen on (default 0: a free one, printed at start)
  --host H       address to bind (default 127.0.0.1)
  --script FILE  rules: a JSON file (see src/demo/fake-model/script-file.ts) or a
                 .ts/.js module whose default export is a Rule[] (e.g. test/smoke/rules.ts);
                 default: reply "echo: <last user text>" to every request
`;

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    script: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

// The runtime prepends <system-reminder> blocks to the user's text; echo only what the user typed.
const userTyped = (s: string) =>
  s.replace(/<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, "").trim();
const echo: Rule = {
  name: "echo",
  match: {},
  reply: (req) => reply(text(`echo: ${userTyped(req.lastUserText)}`)),
};

async function scriptRules(file: string): Promise<Rule[]> {
  const path = resolve(file);
  // A .ts/.js module exports its rules (functions allowed); anything else is a JSON script.
  if (/\.[cm]?[jt]s$/.test(path)) {
    const mod = (await import(pathToFileURL(path).href)) as { default?: Rule[] };
    if (!Array.isArray(mod.default)) throw new Error(`${file}: no default export of rules`);
    return mod.default;
  }
  return loadScript(JSON.parse(await readFile(path, "utf8")) as unknown);
}

const rules: Rule[] = values.script ? await scriptRules(values.script) : [echo];
// keep 0: nothing outside can read this process's record, and each request holds its whole
// conversation: a long run (the bench's 2,000-turn conversations) would otherwise fill the heap.
const model = await FakeModel.start({
  rules,
  host: values.host,
  port: Number(values.port),
  keep: 0,
});
process.stdout.write(`fake model listening on ${model.url} (${rules.length} rule(s))\n`);
process.stdout.write(`  ANTHROPIC_BASE_URL=${model.url} ANTHROPIC_API_KEY=x\n`);

const stop = () => {
  process.stdout.write(
    `\n${model.requests.length} request(s), ${model.unmatched.length} unmatched\n`,
  );
  void model.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
