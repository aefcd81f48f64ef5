/**
 * docs/delivery.md's recorded session, line for line: `claude-a2a send --deliver branch …`
 * against our server, the REAL Claude Code runtime with the scripted model and real git. Claude's
 * first answer leaves the test red, the check's output goes back to it as a fix round, its fix
 * turns the check green, and the terminal ends with the proof of work.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { comparableScreen } from "../support/demo/transcripts.js";
import {
  a2a,
  reply,
  terminal,
  text,
  toolUse,
  type ParsedRequest,
} from "../support/harness/index.js";
import { initRepository, workingDir } from "../support/harness/git.js";

const PROMPT = "Write year.js so that the date test passes";

/** The repository: the test the check runs, of a `year.js` that Claude writes. */
const FILES = {
  "test.sh":
    'y=$(node -p \'require("./year.js").year("2024-05-01")\')\n' +
    '[ "$y" = 2024 ] || { echo "year(2024-05-01): expected 2024, got $y"; exit 1; }\n' +
    "echo 'year(2024-05-01): ok'\n",
};

const write = (content: string) => (req: ParsedRequest) =>
  reply(toolUse("Write", { file_path: join(workingDir(req), "year.js"), content }));

const rules = [
  {
    name: "fix round: parse the year",
    match: { lastUserText: /expected 2024, got/, toolResult: false },
    reply: write("exports.year = (s) => Number(s.slice(0, 4));\n"),
  },
  {
    name: "fixed",
    match: {
      toolResult: /year\.js/,
      when: (req: ParsedRequest) => JSON.stringify(req.body).includes("expected 2024, got"),
    },
    reply: reply(text("year() takes the first four digits now.")),
  },
  {
    name: "first answer",
    match: { toolResult: /year\.js/ },
    reply: reply(text("Wrote year.js: year() reads the date as a number.")),
  },
  {
    name: "first turn: a fix that is not one",
    match: { lastUserText: PROMPT },
    reply: write("exports.year = (s) => Number(s);\n"),
  },
];

/**
 * The recorded screen: the fenced block after `<!-- recorded-session: <this file> -->`, its `$ `
 * line left out. Its fence is four backticks: the proof of work it ends with has fences of three.
 */
async function recordedScreen(doc: string): Promise<string> {
  const marker = "<!-- recorded-session: test/e2e/client-delivery-record.test.ts -->";
  const text = await readFile(join(process.cwd(), doc), "utf8");
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${doc} has no ${marker}`);
  const block = /^````\n([\s\S]*?)^````$/m.exec(text.slice(at))?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => !line.startsWith("$ "))
    .join("\n");
}

/** The proof of work's durations vary run to run, as the stream's seconds do. */
const comparable = (screen: string) =>
  comparableScreen(screen).replace(/- Duration: \d+ ms/g, "- Duration: <ms> ms");

describe("claude-a2a send --deliver branch, as docs/delivery.md records it (real runtime)", () => {
  it("a red check, a fix round, a green check, then the proof of work", async () => {
    const h = await a2a({
      config: {
        claude: {
          isolation: "worktree",
          delivery: { checks: [{ name: "test", command: "sh test.sh" }], maxRounds: 3 },
        },
      },
      rules,
      beforeStart: (cwd) => initRepository(cwd, FILES),
    });
    const cli = await terminal(h.server.url);
    const r = await cli.run(["send", "--deliver", "branch", PROMPT]);
    expect(r.code, `${r.err}${r.out}`).toBe(0);
    expect(h.bench.model.unmatched).toEqual([]);
    // RECORD_DELIVERY=<file>: this run's screen, to record again when the output changes.
    const record = process.env.RECORD_DELIVERY;
    if (record !== undefined && record !== "") await writeFile(record, r.out);
    expect(comparable(`${r.err}${r.out}`)).toBe(
      comparable(await recordedScreen("docs/delivery.md")),
    );
    await cli.close();
  }, 180_000);
});
