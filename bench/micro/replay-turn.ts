/**
 * In-process, interleaved: what numbering and keeping events (`replay.enabled`) adds to the
 * server's own CPU for a warm turn. Agents as the server builds them (`createAgent` of a build's
 * `dist/`: request handler, task channels, the default SQLite store in a temp workspace), driven
 * through the Claude Code seam by a scripted runtime (a warm turn: a 5-delta answer and its
 * result): no HTTP and no Claude Code process, so far less noise than the `resume` scenario's.
 * Sides: this build with replay off (the baseline) and on, and with `BENCH_BEFORE=<checkout>` that
 * build's with replay on. Each block is a new conversation of `turns` turns (blocking and
 * streaming in turn) on one side; rounds run every side once, in a rotating order. Prints each
 * side's median CPU time per turn (process.cpuUsage: user + system) and the median over rounds of
 * its difference with the baseline's block of the same round.
 *
 *   npm run build && npx tsx bench/micro/replay-turn.ts [rounds=30] [turns per block=40]
 *   BENCH_BEFORE=/tmp/old npx tsx bench/micro/replay-turn.ts
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/micro/replay-turn.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
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
import { median } from "../stats.js";
import { builtPath } from "./built-path.js";

const [rounds = 30, turns = 40] = process.argv.slice(2).map(Number);
const logger = pino({ level: "silent" });
const context = new ServerCallContext();
const ANSWER = ["A reply ", "streamed in ", "a few chunks ", "for the ", "benchmark."];
const HERE = resolve(fileURLToPath(new URL("../..", import.meta.url)));

interface Side {
  readonly name: string;
  readonly agent: AgentModule.Agent;
  readonly fake: FakeFactory;
  readonly dir: string;
  contextId: string;
  sends: number;
  readonly cpu: number[];
}

async function side(name: string, root: string, replay: boolean): Promise<Side> {
  const { createAgent } = (await import(builtPath(root, "app/agent.js"))) as typeof AgentModule;
  const { resolveConfig } = (await import(
    builtPath(root, "config/load.js")
  )) as typeof ConfigModule;
  const dir = mkdtempSync(join(tmpdir(), "replay-turn-"));
  const config = resolveConfig(
    { replay: { enabled: replay }, sessions: { spares: 0 } },
    { file: join(dir, "c.json"), startDir: dir, overrides: { cwd: dir } },
  );
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

/** The runtime's answer to the session's next send: 5 deltas, the message, the result. */
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
    ...(index === 0 ? [sdk.init()] : []),
    ...streamedText("m", ANSWER, { stamp }),
    sdk.text("m", text, { stamp }),
    sdk.messageDelta(),
    sdk.messageStop(),
    sdk.result({ text, stamp }),
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

const before = process.env.BENCH_BEFORE ?? "";
const sides = [
  await side("this build, replay off", HERE, false),
  ...(before === "" ? [] : [await side("before, replay on", resolve(before), true)]),
  await side("this build, replay on", HERE, true),
];
// The first turn of each starts its session; then warm ones for the JIT.
for (const s of sides) for (let i = 0; i < 30; i++) await turn(s, i % 2 === 1);
for (let round = 0; round < rounds; round++) {
  const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
  for (const s of round % 2 === 0 ? order : order.reverse()) {
    // A conversation of its own per block: a turn's cost grows with its conversation's length.
    s.contextId = "";
    const start = process.cpuUsage();
    for (let i = 0; i < turns; i++) await turn(s, i % 2 === 1);
    const used = process.cpuUsage(start);
    s.cpu.push((used.user + used.system) / 1000 / turns);
  }
}
const baseline = sides[0] as Side;
for (const s of sides) {
  const paired = s.cpu.map((c, i) => c - (baseline.cpu[i] ?? Number.NaN));
  const extra = s === baseline ? "" : `, + ${(median(paired) * 1000).toFixed(0)} µs (paired)`;
  const ratio = median(s.cpu) / median(baseline.cpu);
  console.log(
    `${s.name.padEnd(24)} ${median(s.cpu).toFixed(3)} ms CPU per turn (${ratio.toFixed(3)}×${extra})`,
  );
}
for (const s of sides) {
  await s.agent.close();
  rmSync(s.dir, { recursive: true, force: true });
}
