import { ClaudeSession } from "../../../../src/claude/session.js";
import type { ClaudeSessionOptions } from "../../../../src/claude/options.js";
import { collect, recorder, sequentialIds, silentLogger } from "./helpers.js";
import { fakeQueryFactory } from "./scripted-query.js";

/** A session wired to a scripted query through the production seam. */
export function scriptedSession(opts: Partial<ClaudeSessionOptions> = {}) {
  const fake = fakeQueryFactory();
  const session = new ClaudeSession({
    cwd: "/work",
    queryFactory: fake.factory,
    logger: silentLogger,
    newId: sequentialIds(),
    historyLoader: () => Promise.resolve([]),
    usageBaselineLoader: () => Promise.resolve(undefined),
    ...opts,
  });
  const rec = recorder((l) => session.subscribe(l));
  /** Sends `prompt` and resolves with the stream and the uuid the runtime will stamp. */
  const send = async (prompt: string, index: number) => {
    const stream = session.stream(prompt);
    const sent = await fake.query.sentMessage(index);
    return { stream, stamp: String(sent.uuid) };
  };
  /** Sends `prompt` and collects its run's stream from then on (`out`: all of it, once it ends). */
  const start = async (prompt: string, index: number) => {
    const sent = await send(prompt, index);
    return { ...sent, out: collect(sent.stream) };
  };
  const runState = (runId: string) => session.runs().find((r) => r.id === runId)?.state;
  const transitions = (runId: string) =>
    rec
      .of("run_state")
      .filter((e) => e.runId === runId)
      .map((e) => e.to);
  /** The session's turn moves so far, as "from->to". */
  const turnMoves = () => rec.of("turn_state").map((t) => `${t.from}->${t.to}`);
  return { fake, session, rec, send, start, runState, transitions, turnMoves };
}
