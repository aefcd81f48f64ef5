/**
 * The server's main-thread time inside the turns of `spares-path.ts`, one-shots against warm
 * turns: a V8 CPU profile (`PROBE_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>"`) lined up with the
 * turns' windows (`PROBE_TURNS_OUT=<file>` writes `<file>.<server>.json`) through the trace's
 * clock line. Prints self time per function, a turn's mean, then the heaviest stacks of one-shots.
 *
 *   npx tsx bench/probes/profile-window.ts <profile dir> <file>.after.json [top=25]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}
interface Window {
  kind: "one-shot" | "warm";
  from: number;
  to: number;
}

const [dir = "", turnsFile = "", topArg = "25"] = process.argv.slice(2);
const top = Number(topArg);
const { turns, traceFile } = JSON.parse(readFileSync(turnsFile, "utf8")) as {
  turns: Window[];
  traceFile: string;
};
const clock = (readFileSync(traceFile, "utf8").split("\n")[0] ?? "").split("\t");
const wall0 = Number(clock[0]);
const mono0 = Number(/clock ([\d.]+)/.exec(clock[3] ?? "")?.[1]);
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (file === undefined) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const short = (url: string) =>
  url
    .replace(/.*node_modules\//, "")
    .replace(/.*\/dist\//, "dist/")
    .replace(/^node:/, "");
const kinds = ["one-shot", "warm"] as const;
const self = new Map(kinds.map((k) => [k, new Map<string, number>()]));
const stacks = new Map<string, number>();
const busy = new Map<string, number>(kinds.map((k) => [k, 0]));
const count = new Map<string, number>(
  kinds.map((k) => [k, turns.filter((t) => t.kind === k).length]),
);
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

let t = profile.startTime;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  t += dt;
  const at = t / 1000 - mono0 + wall0;
  const turn = turns.find((w) => at >= w.from && at <= w.to);
  const node = byId.get(id);
  if (turn === undefined || node === undefined || node.callFrame.functionName === "(idle)") return;
  const f = node.callFrame;
  add(
    self.get(turn.kind)!,
    `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber}`,
    dt,
  );
  add(busy, turn.kind, dt);
  if (turn.kind !== "one-shot") return;
  const frames: string[] = [];
  for (let n: number | undefined = id; n !== undefined && frames.length < 10; n = parent.get(n)) {
    const c = byId.get(n)?.callFrame;
    if (c && (c.functionName || c.url))
      frames.push(`${c.functionName || "(anonymous)"}@${short(c.url)}`);
  }
  add(stacks, frames.join(" < "), dt);
});

for (const k of kinds) {
  const n = count.get(k) || 1;
  console.log(
    `\n${k}: ${count.get(k)} turns, main thread busy ${((busy.get(k) ?? 0) / 1000 / n).toFixed(1)} ms a turn`,
  );
  const rows = [...self.get(k)!].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [what, us] of rows) console.log(`${(us / 1000 / n).toFixed(1).padStart(7)}  ${what}`);
}
console.log("\none-shot stacks (ms a turn):");
const n = count.get("one-shot") || 1;
for (const [what, us] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(us / 1000 / n).toFixed(1).padStart(7)}  ${what}`);
}
