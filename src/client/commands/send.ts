import type { Part } from "@a2a-js/sdk";
import { currentInvocation } from "../../common/invocation.js";
import { errorMessage } from "../connect.js";
import { session, write, type ClientEnv, type CommonOptions } from "../env.js";
import { dataPart, textPart, userMessage } from "../message-parts.js";
import { filePart } from "../parts.js";
import { rememberedContext } from "../remembered.js";
import { EXIT, exitCode, renderEnd } from "../render-end.js";
import { streamTurn } from "../turn.js";
import { CONTROL_HEADERS } from "../control-commands.js";
import { DELIVER_KEY } from "../../contract/delivery.js";

export interface SendOptions extends CommonOptions {
  context?: string;
  task?: string;
  new?: boolean;
  json?: boolean;
  file?: string[];
  data?: string;
  /** `--no-cost`: false. */
  cost?: boolean;
  /** `--deliver <target>`: the new task's delivery (docs/delivery.md). */
  deliver?: string;
}

export class UsageError extends Error {}

/** The parts of the message: the text (or standard input for `-`), then files, then data. */
export async function messageParts(
  words: readonly string[],
  o: SendOptions,
  e: ClientEnv,
): Promise<Part[]> {
  const text = words.length === 1 && words[0] === "-" ? await e.readStdin() : words.join(" ");
  const parts: Part[] = [];
  if (text.trim() !== "") parts.push(textPart(text));
  for (const path of o.file ?? []) parts.push(await filePart(path));
  if (o.data !== undefined) {
    try {
      parts.push(dataPart(JSON.parse(o.data)));
    } catch (err) {
      throw new UsageError(`--data is not JSON: ${(err as Error).message}`);
    }
  }
  if (parts.length === 0)
    throw new UsageError("nothing to send: give a MESSAGE, - for standard input, --file or --data");
  return parts;
}

export async function sendCommand(
  words: readonly string[],
  o: SendOptions,
  e: ClientEnv,
): Promise<number> {
  const s = session(o, e);
  let parts: Part[];
  try {
    parts = await messageParts(words, o, e);
  } catch (err) {
    e.err(`claude-a2a: ${(err as Error).message}\n`);
    return err instanceof UsageError ? EXIT.usage : EXIT.failed;
  }
  try {
    const client = await s.client();
    let contextId = o.context;
    if (o.task && contextId === undefined) {
      // An answer to a parked task must carry that task's context.
      contextId = (await client.getTask({ tenant: "", id: o.task, historyLength: 0 })).contextId;
    }
    if (contextId === undefined && !o.new)
      contextId = await rememberedContext(s, client, (t) => e.err(t), s.colors);
    const message = userMessage(parts, { taskId: o.task, contextId });
    // A delivery is asked with the control extension (`metadata.deliver`, docs/delivery.md).
    const deliver = o.deliver !== undefined;
    if (deliver) message.metadata = { [DELIVER_KEY]: o.deliver };
    const view = await streamTurn(client, message, e, {
      json: o.json,
      colors: s.colors,
      ...(deliver && { headers: CONTROL_HEADERS }),
    });
    if (view.contextId) await s.memory.set(s.url, view.contextId);
    const end = renderEnd(
      view,
      s.colors,
      (id) => `answer with: ${currentInvocation()} send --task ${id} "<your answer>"`,
      { cost: o.cost !== false },
    );
    write(e, o.json ? end.filter((x) => x.to === "err") : end);
    return exitCode(view);
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}
