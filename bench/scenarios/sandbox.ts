/**
 * The OS sandbox (`claude.sandbox`, docs/sandbox.md): what running a command in it costs. Two
 * servers on the scripted model, one with the sandbox off and one with `"strict"` (bubblewrap
 * and socat on Linux), each with one warm conversation; each round runs one turn on each, in
 * alternating order, whose model reply is one trivial Bash command (`echo`) and then a short
 * text: the turn's whole time, blocking. The difference of the medians is what one sandboxed
 * command adds. Target (issue 32): under 50 ms on this 2-core machine.
 *
 * BENCH_SANDBOX_RG=<path of a ripgrep>: a third server, "strict" with `ripgrep.command` set to
 * it, in the same rounds: the runtime runs ripgrep before every sandboxed command (its
 * dangerous-file scan), by default its own 400 MB binary; this measures a system one instead.
 */
import { blockingTurn } from "../a2a.js";
import { BASH_PROMPT } from "../model-rules.js";
import type { Plan } from "../plan.js";
import type { ExtraServer, Rig } from "../rig.js";
import type { Row } from "../stats.js";

const SCENARIO = "sandbox: one Bash per turn";

export async function sandbox(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const servers: ExtraServer[] = [];
  try {
    const off = await rig.extraServer({ claude: { permissionMode: "acceptEdits" } });
    servers.push(off);
    const strict = await rig.extraServer({
      claude: { permissionMode: "acceptEdits", sandbox: "strict" },
    });
    servers.push(strict);
    const variants = [off, strict];
    const rg = process.env.BENCH_SANDBOX_RG;
    if (rg !== undefined && rg !== "") {
      const withRg = await rig.extraServer({
        claude: {
          permissionMode: "acceptEdits",
          sandbox: { preset: "strict", ripgrep: { command: rg } },
        },
      });
      servers.push(withRg);
      variants.push(withRg);
    }
    // The first turn of each spawns its process; then every turn is warm.
    const contexts: string[] = [];
    for (const s of variants) {
      const first = await blockingTurn(s.client, BASH_PROMPT);
      if (first.error || first.text !== "Ran it.") {
        throw new Error(`sandbox bench: the first turn did not run the command (${first.text})`);
      }
      contexts.push(first.contextId);
    }
    const samples: number[][] = variants.map(() => []);
    let errors = 0;
    for (let round = -2; round < plan.sandboxRounds; round++) {
      // Each variant first as often as the others.
      const order = variants.map((_, i) => (i + round + 2) % variants.length);
      for (const at of order) {
        const turn = await blockingTurn(
          (variants[at] as ExtraServer).client,
          BASH_PROMPT,
          contexts[at],
        );
        if (turn.error || turn.text !== "Ran it.") errors++;
        if (round >= 0) samples[at]?.push(turn.finalMs);
      }
    }
    if (errors > 0) log(`bench: sandbox: ${errors} turn(s) did not complete with the command run`);
    const [offMs = [], strictMs = [], rgMs] = samples;
    const added = (ms: number[]) => ms.map((x, i) => x - (offMs[i] ?? x));
    const rgRows: Row[] =
      rgMs === undefined
        ? []
        : [
            {
              scenario: SCENARIO,
              group: "turn",
              variant: '"strict", system ripgrep',
              unit: "ms",
              samples: rgMs,
            },
            {
              scenario: SCENARIO,
              group: "added per command",
              variant: "strict + system rg − off",
              unit: "ms",
              samples: added(rgMs),
              target: "< 50 ms",
            },
          ];
    return [
      {
        scenario: SCENARIO,
        group: "turn",
        variant: "sandbox off",
        unit: "ms",
        samples: offMs,
        baseline: true,
      },
      {
        scenario: SCENARIO,
        group: "turn",
        variant: '"strict" (bubblewrap)',
        unit: "ms",
        samples: strictMs,
      },
      {
        scenario: SCENARIO,
        group: "added per command",
        variant: "strict − off, same round",
        unit: "ms",
        samples: added(strictMs),
        target: "< 50 ms",
      },
      ...rgRows,
    ];
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
