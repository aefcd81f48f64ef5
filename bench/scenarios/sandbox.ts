/**
 * The OS sandbox (`claude.sandbox`, docs/sandbox.md): what running a command in it costs. Two
 * servers on the scripted model, one with the sandbox off and one with `"strict"` (bubblewrap
 * and socat on Linux), each with one warm conversation; each round runs one turn on each, in
 * alternating order, whose model reply is one trivial Bash command (`echo`) and then a short
 * text: the turn's whole time, blocking. The difference of the medians is what one sandboxed
 * command adds. Target (issue 32): under 50 ms on this 2-core machine.
 *
 * Wall time on a loaded machine is mostly waiting for a CPU, and a sandboxed command starts
 * about nine processes where an unsandboxed one starts one, so the rounds also read the CPU time
 * each turn costs the Claude Code process and the commands it started and waited for (`/proc`:
 * its threads to the nanosecond, its children in 10 ms ticks, hence a mean over the rounds):
 * what the sandbox adds whatever the load.
 *
 * BENCH_SANDBOX_RG=<path of a ripgrep>: a third server, "strict" with `ripgrep.command` set to
 * it, in the same rounds: the runtime runs ripgrep before every sandboxed command (its
 * dangerous-file scan), by default its own 400 MB binary; this measures a system one instead.
 * BENCH_SANDBOX_ALSO=<claude.sandbox as JSON>: one more server with that sandbox, likewise.
 * BENCH_SANDBOX_BEFORE=<a built checkout>: one more server, "strict" on that build's dist/cli.js:
 * with a build from before the boundary (issue 45: the file guard, the runtime's file-tool limits,
 * the commands' environment and HOME denied), "strict − strict before" is what the boundary adds.
 *
 * Each round also starts a new conversation on each server (its first turn: a process spawned,
 * then the same command): what a sandbox, and the boundary, add per new conversation.
 */
import { blockingTurn } from "../a2a.js";
import { BASH_PROMPT } from "../model-rules.js";
import type { Plan } from "../plan.js";
import { childrenCpuTimeMs, cpuTimePreciseMs } from "../proc.js";
import type { ExtraServer, Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { join } from "node:path";
import type { ConfigInput } from "../../src/config/schema.js";

type SandboxSetting = NonNullable<ConfigInput["claude"]>["sandbox"];

const SCENARIO = "sandbox: one Bash per turn";
const BEFORE = '"strict", BENCH_SANDBOX_BEFORE build';

interface Variant {
  readonly name: string;
  readonly server: ExtraServer;
  contextId: string;
  pids: number[];
  readonly wallMs: number[];
  /** A new conversation's first turn (spawn included), one per round. */
  readonly newMs: number[];
  /** Summed over the rounds: the Claude Code process's own threads, and its commands. */
  readonly cpuMs: { runtime: number; commands: number };
}

/** CPU time so far of the Claude Code processes, and of the commands they waited for. */
async function cpuOf(pids: readonly number[]): Promise<{ runtime: number; commands: number }> {
  const cpu = { runtime: 0, commands: 0 };
  for (const pid of pids) {
    cpu.runtime += await cpuTimePreciseMs(pid);
    cpu.commands += await childrenCpuTimeMs(pid);
  }
  return cpu;
}

export async function sandbox(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const variants: Variant[] = [];
  const add = async (name: string, sandboxSetting?: SandboxSetting, cli?: string) => {
    const server = await rig.extraServer(
      {
        claude: {
          permissionMode: "acceptEdits",
          ...(sandboxSetting !== undefined && { sandbox: sandboxSetting }),
        },
        // The new conversations of the rounds make room for each other, idle first.
        sessions: { maxLive: 3 },
      },
      undefined,
      cli,
    );
    variants.push({
      name,
      server,
      contextId: "",
      pids: [],
      wallMs: [],
      newMs: [],
      cpuMs: { runtime: 0, commands: 0 },
    });
  };
  try {
    await add("sandbox off");
    await add('"strict" (bubblewrap)', "strict");
    const rg = process.env.BENCH_SANDBOX_RG;
    if (rg !== undefined && rg !== "") {
      await add('"strict", system ripgrep', { preset: "strict", ripgrep: { command: rg } });
    }
    const also = process.env.BENCH_SANDBOX_ALSO;
    if (also !== undefined && also !== "") await add(also, JSON.parse(also) as SandboxSetting);
    const before = process.env.BENCH_SANDBOX_BEFORE;
    if (before !== undefined && before !== "") {
      await add(BEFORE, "strict", join(before, "dist", "cli.js"));
    }
    // The first turn of each spawns its process; then every turn is warm.
    for (const v of variants) {
      const first = await blockingTurn(v.server.client, BASH_PROMPT);
      if (first.error || first.text !== "Ran it.") {
        throw new Error(`sandbox bench: the first turn did not run the command (${first.text})`);
      }
      v.contextId = first.contextId;
      v.pids = await v.server.claudePids();
    }
    let errors = 0;
    for (let round = -2; round < plan.sandboxRounds; round++) {
      // Each variant first as often as the others.
      for (const at of variants.map((_, i) => (i + round + 2) % variants.length)) {
        const v = variants[at] as Variant;
        const cpuBefore = await cpuOf(v.pids);
        const turn = await blockingTurn(v.server.client, BASH_PROMPT, v.contextId);
        if (turn.error || turn.text !== "Ran it.") errors++;
        if (round < 0) continue;
        v.wallMs.push(turn.finalMs);
        const cpuAfter = await cpuOf(v.pids);
        v.cpuMs.runtime += cpuAfter.runtime - cpuBefore.runtime;
        v.cpuMs.commands += cpuAfter.commands - cpuBefore.commands;
      }
      if (round < 0 || round >= plan.sandboxNewRounds) continue;
      for (const at of variants.map((_, i) => (i + round) % variants.length)) {
        const v = variants[at] as Variant;
        const fresh = await blockingTurn(v.server.client, BASH_PROMPT);
        if (fresh.error || fresh.text !== "Ran it.") errors++;
        v.newMs.push(fresh.finalMs);
      }
    }
    if (errors > 0) log(`bench: sandbox: ${errors} turn(s) did not complete with the command run`);
    return rows(variants, plan.sandboxRounds);
  } finally {
    await Promise.all(variants.map((v) => v.server.close()));
  }
}

function rows(variants: readonly Variant[], rounds: number): Row[] {
  const [off, ...sandboxed] = variants as [Variant, ...Variant[]];
  const row = (group: string, variant: string, samples: number[], extra: Partial<Row> = {}) => ({
    scenario: SCENARIO,
    group,
    variant,
    unit: "ms" as const,
    samples,
    ...extra,
  });
  const cpu = (v: Variant, part: "runtime" | "commands") => v.cpuMs[part] / rounds;
  const cpuRows = (part: "runtime" | "commands", what: string): Row[] => [
    row(`CPU per turn, ${what}`, `${off.name} (mean)`, [cpu(off, part)], { baseline: true }),
    ...sandboxed.flatMap((v) => [
      row(`CPU per turn, ${what}`, `${v.name} (mean)`, [cpu(v, part)]),
      row(`CPU added, ${what}`, `${v.name} − off`, [cpu(v, part) - cpu(off, part)]),
    ]),
  ];
  const strict = sandboxed.find((v) => v.name === '"strict" (bubblewrap)');
  const strictBefore = sandboxed.find((v) => v.name === BEFORE);
  const boundary =
    strict && strictBefore
      ? [
          row(
            "boundary added per command",
            "strict − strict before, same round",
            strict.wallMs.map((ms, i) => ms - (strictBefore.wallMs[i] ?? ms)),
          ),
          row(
            "boundary added per new conversation",
            "strict − strict before, same round",
            strict.newMs.map((ms, i) => ms - (strictBefore.newMs[i] ?? ms)),
          ),
        ]
      : [];
  return [
    row("turn", off.name, off.wallMs, { baseline: true }),
    ...sandboxed.flatMap((v) => [
      row("turn", v.name, v.wallMs),
      row(
        "added per command",
        `${v.name} − off, same round`,
        v.wallMs.map((ms, i) => ms - (off.wallMs[i] ?? ms)),
        { target: "< 50 ms" },
      ),
    ]),
    row("new conversation", off.name, off.newMs, { baseline: true }),
    ...sandboxed.flatMap((v) => [
      row("new conversation", v.name, v.newMs),
      row(
        "added per new conversation",
        `${v.name} − off, same round`,
        v.newMs.map((ms, i) => ms - (off.newMs[i] ?? ms)),
      ),
    ]),
    ...boundary,
    ...cpuRows("commands", "commands"),
    ...cpuRows("runtime", "runtime"),
  ];
}
