/**
 * The recorded sessions of the docs: every fenced block right after a
 * `<!-- demo-session: <name> -->` marker in README.md and docs/*.md, split into the commands a
 * user typed (`$ …` lines) and what each printed; and the normalisation both a recording and a
 * live run go through before they are compared (ids, hashes, ports, times: nothing else).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface RecordedStep {
  /** The command line as typed, without the `$ `. */
  readonly command: string;
  /** What it printed (standard output and error, as a terminal shows them). */
  readonly output: string;
}

export interface RecordedSession {
  readonly name: string;
  /** `docs/demo.md:12`: where the block is. */
  readonly where: string;
  readonly steps: readonly RecordedStep[];
}

const MARKER = /^<!-- demo-session: ([a-z0-9-]+) -->$/;

/** The marked blocks of one Markdown text. Pure. */
export function sessionsOf(file: string, markdown: string): RecordedSession[] {
  const lines = markdown.split("\n");
  const out: RecordedSession[] = [];
  for (let i = 0; i < lines.length; i++) {
    const name = MARKER.exec(lines[i]?.trim() ?? "")?.[1];
    if (name === undefined) continue;
    let start = i + 1;
    while (lines[start]?.trim() === "") start++;
    const fence = /^(`{3,})/.exec(lines[start] ?? "")?.[1];
    if (fence === undefined) throw new Error(`${file}:${i + 1}: no fenced block after the marker`);
    const end = lines.findIndex((l, at) => at > start && l.startsWith(fence));
    if (end < 0) throw new Error(`${file}:${start + 1}: the block is not closed`);
    out.push({ name, where: `${file}:${i + 1}`, steps: stepsOf(lines.slice(start + 1, end)) });
  }
  return out;
}

function stepsOf(block: readonly string[]): RecordedStep[] {
  const steps: { command: string; output: string[] }[] = [];
  for (const line of block) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), output: [] });
    else if (steps.length === 0) throw new Error(`a recorded session starts with a "$ " command`);
    else steps.at(-1)?.output.push(line);
  }
  return steps.map((s) => ({
    command: s.command,
    output: s.output.length === 0 ? "" : `${s.output.join("\n")}\n`,
  }));
}

/** Every marked session of README.md and docs/*.md under `root`. */
export async function recordedSessions(root: string): Promise<RecordedSession[]> {
  const docs = (await readdir(join(root, "docs"))).filter((f) => f.endsWith(".md")).sort();
  const files = ["README.md", ...docs.map((f) => `docs/${f}`)];
  const all: RecordedSession[] = [];
  for (const file of files) all.push(...sessionsOf(file, await readFile(join(root, file), "utf8")));
  return all;
}

/** Words of a command line, with "…" and '…' quoting (what a shell does with them). Pure. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) {
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? ""));
  }
  return words;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** Numbers the ids of one side (recording or live run) in the order they first appear. */
export class IdNumbering {
  private readonly ids = new Map<string, number>();
  private readonly byNumber: string[] = [];

  /** Learns the ids of `text` (in order). */
  see(text: string): void {
    for (const [id] of text.matchAll(UUID)) {
      if (this.ids.has(id)) continue;
      this.ids.set(id, this.byNumber.length);
      this.byNumber.push(id);
    }
  }

  numberOf(id: string): number | undefined {
    return this.ids.get(id);
  }

  idOf(n: number): string | undefined {
    return this.byNumber[n];
  }

  /** `text` with every id it knows written `<id N>`. */
  replace(text: string): string {
    return text.replace(UUID, (id) => `<id ${this.ids.get(id) ?? "?"}>`);
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * What may differ between two runs of one session, and nothing else: ids (numbered by `ids`),
 * commit and branch hashes, ports, timestamps, durations, the temporary folder's name, colours.
 * Pure.
 */
export function normalise(text: string, ids: IdNumbering): string {
  return (
    ids
      .replace(text.replace(ANSI, ""))
      // A commit and a worktree branch's suffix are hex that may happen to hold no letter (about
      // 1 in 100 for 10 digits); elsewhere a hash is told from a number by its letters.
      .replace(/\b(committed )[0-9a-f]{7,40}\b/g, "$1<hash>")
      .replace(/(claude-a2a\/<id \d+>-)[0-9a-f]{6,40}\b/g, "$1<hash>")
      .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g, "<hash>")
      .replace(/\b(localhost|127\.0\.0\.1|\[::1\]):\d+/g, "$1:<port>")
      .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/g, "<time>")
      .replace(/\b\d+(\.\d+)? s\)/g, "<seconds> s)")
      .replace(/claude-a2a-demo-[A-Za-z0-9]+/g, "claude-a2a-demo-<tmp>")
  );
}

/** A recorded command with its ids replaced by the live run's (same numbers). */
export function liveCommand(command: string, recorded: IdNumbering, live: IdNumbering): string {
  return command.replace(UUID, (id) => {
    const n = recorded.numberOf(id);
    const real = n === undefined ? undefined : live.idOf(n);
    if (real === undefined)
      throw new Error(`the command names ${id}, which no output showed before`);
    return real;
  });
}

/**
 * A terminal session recorded in a doc (`README.md`, `docs/control.md`) for one test: the fenced
 * block after `<!-- recorded-session: <test file> -->`, its `$ ` lines (what was typed at the
 * shell) left out.
 */
export async function recordedScreen(doc: string, testFile: string): Promise<string> {
  const marker = `<!-- recorded-session: ${testFile} -->`;
  const text = await readFile(join(process.cwd(), doc), "utf8");
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${doc} has no ${marker}`);
  const block = /^```\n([\s\S]*?)^```$/m.exec(text.slice(at))?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => !line.startsWith("$ "))
    .join("\n");
}

/** A screen as a recording compares it: ids, ports, hashes, times normalised, outer space trimmed. */
export function comparableScreen(text: string): string {
  const ids = new IdNumbering();
  ids.see(text);
  return normalise(text, ids).trim();
}
