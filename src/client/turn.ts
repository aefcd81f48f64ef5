import { StreamResponse, type Message } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { write, type ClientEnv } from "./env.js";
import type { Colors } from "./colors.js";
import { newView, renderEvent, type TurnView } from "./render.js";

export interface TurnOptions {
  readonly json?: boolean;
  readonly colors: Colors;
  /** Called after each event (chat uses it to learn the task id for a cancel). */
  readonly onEvent?: (view: TurnView) => void;
  /** Aborts the stream (not the task). */
  readonly signal?: AbortSignal;
}

/** Streams one message: each event rendered (or printed as one JSON line), into a view. */
export async function streamTurn(
  client: Client,
  message: Message,
  e: ClientEnv,
  o: TurnOptions,
  view: TurnView = newView(),
): Promise<TurnView> {
  const stream = client.sendMessageStream(
    {
      tenant: "",
      message,
      configuration: undefined,
      metadata: undefined,
    },
    o.signal ? { signal: o.signal } : undefined,
  );
  for await (const event of stream) {
    const outputs = renderEvent(view, event, o.colors);
    if (o.json) e.out(`${JSON.stringify(StreamResponse.toJSON(event))}\n`);
    else write(e, outputs);
    o.onEvent?.(view);
  }
  return view;
}
