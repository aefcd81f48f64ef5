/**
 * The scripted model's rules for the benchmarks, loaded by the fake model's own process
 * (`test/support/fake-model-cli.ts --script`), so that producing the deltas costs neither the
 * server nor the direct SDK consumer any CPU.
 */
import { reply, text, toolUse, type Rule } from "../test/support/fake-model/index.js";

/** The short reply of every warm turn: a few chunks, like the measurements. */
export const TURN_PROMPT = "bench-turn";
const TURN_REPLY = "A reply streamed in a few chunks for the benchmark.";

/** `bench-long <N>` is answered with N one-character text deltas. */
export const longPrompt = (n: number, tag: string) => `bench-long ${n} ${tag}`;

/** `bench-paced <N> <ms>`: N one-character deltas, one every <ms> ms (a steady stream). */
export const pacedPrompt = (n: number, everyMs: number, tag: string) =>
  `bench-paced ${n} ${everyMs} ${tag}`;

const longTexts = new Map<number, string>();
/** The N-character answer to `longPrompt(n)`: what a consumer must assemble exactly. */
export function longText(n: number): string {
  let t = longTexts.get(n);
  if (t === undefined) {
    t = Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    longTexts.set(n, t);
  }
  return t;
}

/** `bench-bash`: one trivial Bash command (the sandbox scenario), then a short reply. */
export const BASH_PROMPT = "bench-bash";
const BASH_OUTPUT = "bench-bash-out";

const rules: Rule[] = [
  {
    name: "bash: ran",
    match: { toolResult: BASH_OUTPUT },
    reply: reply(text("Ran it.")),
  },
  {
    name: "bash",
    match: { lastUserText: BASH_PROMPT, toolResult: false },
    reply: reply(toolUse("Bash", { command: `echo ${BASH_OUTPUT}`, description: "Echo" })),
  },
  {
    name: "long",
    match: { lastUserText: /bench-long \d+/ },
    reply: (req) => {
      const n = Number(/bench-long (\d+)/.exec(req.lastUserText)?.[1]);
      return reply(text(longText(n)), { chunkSize: 1 });
    },
  },
  {
    name: "paced",
    match: { lastUserText: /bench-paced \d+ \d+/ },
    reply: (req) => {
      const [, n, ms] = /bench-paced (\d+) (\d+)/.exec(req.lastUserText) ?? [];
      return reply(text(longText(Number(n))), { chunkSize: 1, chunkDelayMs: Number(ms) });
    },
  },
  {
    // The delivery scenario's reviewer (a session of its own): no finding.
    name: "review",
    match: {
      lastUserText: /You are the reviewer of a change made by another Claude Code session/,
      toolResult: false,
    },
    reply: reply(text('Nothing to fix.\n\n```review-findings\n{"findings":[]}\n```')),
  },
  {
    name: "turn",
    match: { lastUserText: TURN_PROMPT },
    reply: reply(text(TURN_REPLY), { chunkSize: 12 }),
  },
];
export default rules;
