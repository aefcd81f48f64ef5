/**
 * In-process, interleaved: the server's own CPU for a warm turn, as two builds do it (issue 52
 * item 6). Agents as the server builds them (`createAgent` of each build's `dist/`, its default
 * config: request handler, task channels, the default SQLite store in a temp workspace, replay
 * where the build has it), driven through the Claude Code seam by a scripted runtime that answers
 * each send as the real one does a short warm turn (session running, init, a 5-delta streamed
 * text, the assistant message, the result with its totals, session idle). No HTTP and no Claude
 * Code process: what is left is our server's per-turn work, counted in CPU time, with the noise of
 * a shared machine hitting every side alike (blocks interleaved in a rotating order).
 *
 * Sides: the earlier build (argument or `BENCH_BEFORE`), this build, and this build with replay
 * off (what numbering and keeping events costs). Each block is a conversation of its own: its
 * first turn starts the session (not counted), then `turns` warm turns, blocking and streaming in
 * turn. Prints each side's median CPU per turn and the median over rounds of its ratio to the
 * first side's block of the same round. `BENCH_WARM_SIDES=after` (any of before, after, off) runs
 * only those: one side alone under `--cpu-prof` gives a profile of that build.
 *
 *   npm run build && npx tsx bench/micro/warm-turn.ts /tmp/old [rounds=20] [turns per block=40]
 *   BENCH_WARM_SIDES=after node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/micro/warm-turn.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SendMessageRequest } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import type * as AgentModule from "../../src/app/agent.js";
import type * as ConfigModule from "../../src/config/load.js";
import { userMessage } from "../../test/support/harness/messages.js";
import {
  fakeQueryFactory,
  type FakeFactory,
} from "../../test/unit/claude/support/scripted-query.js";
import { sdk, streamedText } from "../../test/unit/claude/support/sdk-messages.js";
import { knownKeysOnly } from "../config-keys.js";
import { median } from "../stats.js";
import { builtPath } from "./built-path.js";

const [arg = "", ...rest] = process.argv.slice(2);
const before = arg !== "" && Number.isNaN(Number(arg)) ? arg : (process.env.BENCH_BEFORE ?? "");
const numbers = (before === arg ? rest : [arg, ...rest]).filter((a) => a !== "").map(Number);
const [rounds = 20, turns = 40] = numbers;
const logger = pino({ level: "silent" });
const context = new ServerCallContext();
const ANSWER = ["A reply ", "streamed in ", "a few chunks ", "for the ", "benchmark."];
const HERE = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const TOTALS = { costUsd: 0.00033, input: 10, output: 20 };

interface Side {
  readonly name: string;
  readonly agent: AgentModule.Agent;
  readonly fake: FakeFactory;
  readonly dir: string;
  contextId: string;
  sends: number;
  readonly cpu: number[];
}

async function side(name: string, root: string, wanted: Record<string, unknown>): Promise<Side> {
  // An earlier build gets only the keys its config schema names (before issue 36: no spares).
  const schema: unknown = JSON.parse(readFileSync(join(root, "config.schema.json"), "utf8"));
  const raw = knownKeysOnly(wanted, schema).config;
  const { createAgent } = (await import(builtPath(root, "app/agent.js"))) as typeof AgentModule;
  const { resolveConfig } = (await import(
    builtPath(root, "config/load.js")
  )) as typeof ConfigModule;
  const dir = mkdtempSync(join(tmpdir(), "warm-turn-"));
  const config = resolveConfig(raw, {
    file: join(dir, "c.json"),
    startDir: dir,
    overrides: { cwd: dir },
  });
  const fake = fakeQueryFactory();
  const agent = await createAgent({ config, logger, queryFactory: fake.factory });
  return { name, agent, fake, dir, contextId: "", sends: 0, cpu: [] };
}

const request = (s: Side): SendMessageRequest => ({
  tenant: "",
  message: userMessage("bench-turn", { contextId: s.contextId }),
  configuration: undefined,
  metadata: undefined,
});

/** The runtime's answer to the session's next send, as a real warm turn streams it. */
async function answer(s: Side, fresh: boolean): Promise<void> {
  // A new context starts a new session: its query is created once the send reaches the pool.
  const known = s.fake.queries.length;
  while (fresh && s.fake.queries.length === known) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const query = s.fake.query;
  const index = fresh ? 0 : s.sends;
  s.sends = index + 1;
  const stamp = String((await query.sentMessage(index)).uuid);
  const text = ANSWER.join("");
  query.emit(
    sdk.sessionState("running"),
    sdk.init(),
    ...streamedText("m", ANSWER, { stamp }),
    sdk.text("m", text, { stamp }),
    sdk.messageDelta(),
    sdk.messageStop(),
    sdk.result({ text, stamp, totals: TOTALS }),
    sdk.sessionState("idle"),
  );
}

async function turn(s: Side, streaming: boolean): Promise<void> {
  const handler = s.agent.requestHandler;
  const fresh = s.contextId === "";
  if (streaming) {
    const answered = answer(s, fresh);
    for await (const e of handler.sendMessageStream(request(s), context)) {
      if (e.payload?.$case === "task") s.contextId = e.payload.value.contextId;
    }
    await answered;
  } else {
    const [result] = await Promise.all([
      handler.sendMessage(request(s), context),
      answer(s, fresh),
    ]);
    if ("contextId" in result) s.contextId = result.contextId;
  }
}

// No spare (a spare would be a second scripted query); a build without spares gets no such key.
const wanted = (process.env.BENCH_WARM_SIDES ?? "before,after,off").split(",");
const made = {
  before: () => side("before", resolve(before), { sessions: { spares: 0 } }),
  after: () => side("this build", HERE, { sessions: { spares: 0 } }),
  off: () =>
    side("this build, replay off", HERE, { sessions: { spares: 0 }, replay: { enabled: false } }),
};
const sides: Side[] = [];
for (const [key, make] of Object.entries(made)) {
  if (wanted.includes(key) && (key !== "before" || before !== "")) sides.push(await make());
}
// The JIT's warm-up: a few conversations on each side.
for (const s of sides) {
  for (let c = 0; c < 3; c++) {
    s.contextId = "";
    for (let i = 0; i < 20; i++) await turn(s, i % 2 === 1);
  }
}
for (let round = 0; round < rounds; round++) {
  const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
  for (const s of round % 2 === 0 ? order : order.reverse()) {
    // A conversation of its own per block (a turn's cost may grow with its conversation).
    s.contextId = "";
    await turn(s, false);
    const start = process.cpuUsage();
    for (let i = 0; i < turns; i++) await turn(s, i % 2 === 1);
    const used = process.cpuUsage(start);
    s.cpu.push((used.user + used.system) / 1000 / turns);
  }
}
const baseline = sides[0] as Side;
for (const s of sides) {
  const paired = s.cpu.map((c, i) => c / (baseline.cpu[i] ?? Number.NaN));
  const extra = s === baseline ? "" : ` (${median(paired).toFixed(2)}× ${baseline.name}, paired)`;
  console.log(`${s.name.padEnd(24)} ${median(s.cpu).toFixed(3)} ms CPU per turn${extra}`);
}
for (const s of sides) {
  await s.agent.close();
  rmSync(s.dir, { recursive: true, force: true });
}
