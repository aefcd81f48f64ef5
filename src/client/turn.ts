import { StreamResponse, type Message } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { write, type ClientEnv } from "./env.js";
import type { Colors } from "./colors.js";
import { newView, renderEvent, type TurnView } from "./render.js";
import { endsTurn, eventNumberOf, isDroppedConnection, MAX_RESUMES } from "./resume.js";
import { LAST_EVENT_ID_HEADER } from "../contract/replay.js";

export interface TurnOptions {
  readonly json?: boolean;
  readonly colors: Colors;
  /** Called after each event (chat uses it to learn the task id for a cancel). */
  readonly onEvent?: (view: TurnView) => void;
  /** Aborts the stream (not the task). */
  readonly signal?: AbortSignal;
}

/**
 * Streams one message: each event rendered (or printed as one JSON line), into a view. A stream
 * that drops (the connection, not the server's answer) is resumed: "reconnecting…" on stderr,
 * then the same message (the same messageId: the server starts nothing new) with the last event
 * number received as `Last-Event-ID`, so what follows is exactly what was missed.
 */
export async function streamTurn(
  client: Client,
  message: Message,
  e: ClientEnv,
  o: TurnOptions,
  view: TurnView = newView(),
): Promise<TurnView> {
  let cursor: number | undefined;
  for (let resumes = 0; ; resumes++) {
    const stream = client.sendMessageStream(
      { tenant: "", message, configuration: undefined, metadata: undefined },
      {
        ...(o.signal && { signal: o.signal }),
        ...(cursor !== undefined && {
          serviceParameters: { [LAST_EVENT_ID_HEADER]: String(cursor) },
        }),
      },
    );
    try {
      for await (const event of stream) {
        cursor = eventNumberOf(event) ?? cursor;
        const outputs = renderEvent(view, event, o.colors);
        if (o.json) e.out(`${JSON.stringify(StreamResponse.toJSON(event))}\n`);
        else write(e, outputs);
        o.onEvent?.(view);
        if (endsTurn(event)) return view;
      }
      // Ended without its last event: the connection closed under it.
      if (cursor === undefined) return view;
    } catch (err) {
      if (!isDroppedConnection(err) || resumes >= MAX_RESUMES || o.signal?.aborted) throw err;
    }
    if (resumes >= MAX_RESUMES) return view;
    e.err(`reconnecting… (from event ${cursor ?? 0})\n`);
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** resumes));
  }
}
