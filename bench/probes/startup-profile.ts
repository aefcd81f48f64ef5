/**
 * Where a second start's CPU goes with a big conversation map (issue 52 item 2): for each size,
 * a workspace seeded as the scale scenario seeds it, started once (the seed file imported, the
 * sweep let finish), then started again under `--cpu-prof` and stopped as soon as `/healthz`
 * answers. Prints that start's CPU; the profile (from spawn to the stop) is in the directory.
 *   npx tsx bench/probes/startup-profile.ts <profile dir> [sizes=100,50000]
 * then `npx tsx bench/profile-summary.ts <dir>/<size>/CPU.*.cpuprofile 30`.
 * Run after `npm run build`.
 */
import { join } from "node:path";
import { cpuTimePreciseMs } from "../proc.js";
import { startRig } from "../rig.js";
import { makeTemplate, seeded } from "../scenarios/scale.js";

const [dir = "/tmp/startup-prof", sizesArg = "100,50000"] = process.argv.slice(2);
const rig = await startRig();
try {
  const template = await makeTemplate(rig);
  for (const size of sizesArg.split(",").map(Number)) {
    const s = await seeded(rig, { label: "this build", cli: undefined }, template, {
      resumable: size,
      stale: 0,
      turns: 1,
    });
    try {
      process.env.BENCH_PROFILE = join(dir, String(size));
      await s.server.restart();
      const cpu = await cpuTimePreciseMs(s.server.server.pid);
      delete process.env.BENCH_PROFILE;
      process.stdout.write(`${size} conversations: second start ${cpu.toFixed(0)} ms CPU\n`);
    } finally {
      await s.server.close();
    }
  }
} finally {
  await rig.close();
}
