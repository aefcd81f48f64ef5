/**
 * In-process, interleaved: what numbering and keeping events (`replay.enabled`) adds to the
 * server's own CPU for a warm turn. Two agents as the server builds them (`createAgent`: request
 * handler, task channels, the default SQLite store in a temp workspace), replay off and on, each
 * driven through the Claude Code seam by a scripted runtime (a warm turn: a 5-delta answer and its
 * result), no HTTP and no Claude Code process, so the machine's noise is far smaller than the
 * `resume` scenario's. Turns alternate blocking and streaming; blocks of turns alternate the two
 * agents. Prints the median CPU time (process.cpuUsage: user + system) per turn of each, and
 * their ratio.
 *
 *   npx tsx bench/micro/replay-turn.ts [rounds=15] [turns per block=100]
 *   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/micro/replay-turn.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SendMessageRequest } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { createAgent, type Agent } from "../../src/app/agent.js";
import { resolveConfig } from "../../src/config/load.js";
import { userMessage } from "../../test/support/harness/messages.js";
import {
  fakeQueryFactory,
  type FakeFactory,
} from "../../test/unit/claude/support/scripted-query.js";
import { sdk, streamedText } from "../../test/unit/claude/support/sdk-messages.js";
import { median } from "../stats.js";

const [rounds = 15, turns = 100] = process.argv.slice(2).map(Number);
const logger = pino({ level: "silent" });
const context = new ServerCallContext();
const ANSWER = ["A reply ", "streamed in ", "a few chunks ", "for the ", "benchmark."];

interface Side {
  readonly name: string;
  readonly agent: Agent;
  readonly fake: FakeFactory;
  readonly dir: string;
  contextId: string;
  sends: number;
  readonly cpu: number[];
}

async function side(name: string, replay: boolean): Promise<Side> {
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
async function answer(s: Side): Promise<void> {
  const index = s.sends++;
  if (s.fake.queries.length === 0) await new Promise((resolve) => setImmediate(resolve));
  const stamp = String((await s.fake.query.sentMessage(index)).uuid);
  const text = ANSWER.join("");
  s.fake.query.emit(
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
  if (streaming) {
    const answered = answer(s);
    for await (const e of handler.sendMessageStream(request(s), context)) {
      if (e.payload?.$case === "task") s.contextId = e.payload.value.contextId;
    }
    await answered;
  } else {
    const [result] = await Promise.all([handler.sendMessage(request(s), context), answer(s)]);
    if ("contextId" in result) s.contextId = result.contextId;
  }
}

const sides = [await side("replay.enabled false", false), await side("replay.enabled true", true)];
// The first turn of each starts its session; then a few warm ones for the JIT.
for (const s of sides) for (let i = 0; i < 20; i++) await turn(s, i % 2 === 1);
for (let round = 0; round < rounds; round++) {
  for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
    const before = process.cpuUsage();
    for (let i = 0; i < turns; i++) await turn(s, i % 2 === 1);
    const used = process.cpuUsage(before);
    s.cpu.push((used.user + used.system) / 1000 / turns);
  }
}
const [off, on] = sides.map((s) => median(s.cpu)) as [number, number];
for (const s of sides) {
  const blocks = s.cpu.map((c) => c.toFixed(2)).join(" ");
  console.log(
    `${s.name.padEnd(22)} ${median(s.cpu).toFixed(3)} ms CPU per turn; blocks: ${blocks}`,
  );
}
console.log(
  `on ÷ off ${(on / off).toFixed(3)}×, on − off ${((on - off) * 1000).toFixed(0)} µs per turn`,
);
for (const s of sides) {
  await s.agent.close();
  rmSync(s.dir, { recursive: true, force: true });
}
