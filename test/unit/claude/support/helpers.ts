import { pino } from "pino";
import type { RunStream } from "../../../../src/claude/session.js";
import type { RunStreamEvent, SessionEvent } from "../../../../src/claude/events.js";

export const silentLogger = pino({ level: "silent" });

/** Deterministic ids: run and send ids read well in failures. */
export function sequentialIds(prefix = "id"): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

export async function collect(stream: RunStream): Promise<RunStreamEvent[]> {
  const out: RunStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

export function recorder(subscribe: (l: (e: SessionEvent) => void) => () => void) {
  const events: SessionEvent[] = [];
  subscribe((e) => events.push(e));
  return {
    events,
    of<T extends SessionEvent["type"]>(type: T): Extract<SessionEvent, { type: T }>[] {
      return events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
    },
  };
}
