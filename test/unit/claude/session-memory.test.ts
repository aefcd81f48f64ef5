/**
 * A long session's memory stays bounded: ended runs and finished timeline entries beyond what
 * any reader needs are dropped as turns go, the status is derived from the active runs and the
 * last ending only, and `streamHistory` still gives the whole conversation (the dropped part read
 * back from the transcript). Driven through the SDK seam with scripted message sequences.
 */
import { describe, expect, it } from "vitest";
import type { SessionCore } from "../../../src/claude/core.js";
import { KEPT_ENDED_RUNS } from "../../../src/claude/run-tracker.js";
import { KEPT_ENTRIES, type HistoryMessage } from "../../../src/claude/timeline.js";
import { collect } from "./support/helpers.js";
import { historyExchange, reply } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

const TURNS = 2_000;

describe("ClaudeSession: memory over a long conversation", () => {
  it("keeps runs and timeline entries bounded over 2,000 turns, and streamHistory whole", async () => {
    // What the runtime's transcript would hold: every exchange, in order.
    const transcript: HistoryMessage[] = [];
    let transcriptReads = 0;
    const { fake, session, send } = scriptedSession({
      historyLoader: () => {
        transcriptReads++;
        return Promise.resolve([...transcript]);
      },
    });
    const core = (session as unknown as { core: SessionCore }).core;
    const sizes: {
      turn: number;
      runs: number;
      statusRuns: number;
      entries: number;
      owners: number;
    }[] = [];
    for (let i = 0; i < TURNS; i++) {
      const { stream, stamp } = await send(`question ${i}`, i);
      await fake.query.feed(...reply(stamp, `m${i}`, `answer ${i}`));
      await collect(stream);
      transcript.push(
        ...historyExchange(
          { uuid: stamp, text: `question ${i}` },
          { uuid: `a${i}`, messageId: `m${i}`, text: `answer ${i}` },
        ),
      );
      if (i === KEPT_ENDED_RUNS - 1 || i === TURNS - 1) {
        sizes.push({
          turn: i + 1,
          runs: session.runs().length,
          statusRuns: core.runs.statusRuns().length,
          entries: core.timeline.size,
          owners: core.owners.size,
        });
      }
    }
    const [early, late] = sizes;
    expect(late?.runs).toBe(KEPT_ENDED_RUNS);
    // The status is derived from the same few runs at turn 2,000 as early on.
    expect(late?.statusRuns).toBe(early?.statusRuns);
    expect(late?.statusRuns).toBe(1);
    expect(late?.entries).toBeLessThanOrEqual(KEPT_ENTRIES);
    // The identifiers routing reads (message ids, sends) are the kept runs' only.
    expect(early?.owners).toBeGreaterThan(0);
    expect(late?.owners).toBe(early?.owners);
    expect(session.status).toBe("idle");

    const history = [];
    for await (const e of session.streamHistory()) history.push(e);
    expect(transcriptReads).toBe(1);
    expect(history.map((e) => e.text)).toEqual(
      Array.from({ length: TURNS }, (_, i) => [`question ${i}`, `answer ${i}`]).flat(),
    );
    // The latest turns are still the live entries, with their runs.
    expect(history.at(-1)).toMatchObject({ source: "live", text: `answer ${TURNS - 1}` });
    expect(history.at(-1)?.runId).toBeDefined();
  }, 60_000);
});
