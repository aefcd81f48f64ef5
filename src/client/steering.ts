/**
 * Steering from `chat`: a line typed while a turn runs goes to the working task as a steering
 * message (docs/control.md "Steer"), when the agent's card offers the control extension's `steer`.
 */
import { createInterface } from "node:readline";
import type { AgentCard } from "@a2a-js/sdk";
import { ServiceParameters, withA2AExtensions, type Client } from "@a2a-js/sdk/client";
import { CONTROL_EXTENSION_URI, type Control } from "../contract/control.js";
import type { Colors } from "./colors.js";
import { errorMessage } from "./connect.js";
import { textPart, userMessage } from "./message-parts.js";

/** Whether the agent's card lists the control extension with `control` on. Pure. */
export function offersControl(card: Pick<AgentCard, "capabilities">, control: Control): boolean {
  const extension = card.capabilities?.extensions.find((x) => x.uri === CONTROL_EXTENSION_URI);
  const controls = (extension?.params as { controls?: unknown } | undefined)?.controls;
  return Array.isArray(controls) && controls.includes(control);
}

/** The request options that activate the control extension (its `A2A-Extensions` header). */
export const controlRequestOptions = () => ({
  serviceParameters: ServiceParameters.createFrom(
    undefined,
    withA2AExtensions(CONTROL_EXTENSION_URI),
  ),
});

/** What steering needs of the turn under way (the task's ids, once its stream named them). */
export interface SteeredTurn {
  readonly taskId?: string | undefined;
  readonly contextId?: string | undefined;
}

export interface SteeringIo {
  readonly input: NodeJS.ReadableStream;
  readonly colors: Colors;
  err(text: string): void;
}

/**
 * Reads lines from the terminal while a turn runs and sends each as a steering message to its
 * task; a line typed before the task's id is known waits for it. Returns the stop, which ends
 * the reading (what is typed after it is the prompt's again).
 */
export function steerWhileRunning(
  client: Client,
  turn: () => SteeredTurn,
  io: SteeringIo,
): { stop(): void; taskKnown(): void } {
  const waiting: string[] = [];
  const lines = createInterface({ input: io.input, terminal: false });
  const send = (text: string) => {
    const { taskId, contextId } = turn();
    if (taskId === undefined) {
      waiting.push(text);
      return;
    }
    io.err(io.colors.dim(`↳ steering: ${text}\n`));
    const message = userMessage([textPart(text)], { taskId, contextId });
    client
      .sendMessage(
        { tenant: "", message, configuration: undefined, metadata: undefined },
        controlRequestOptions(),
      )
      .catch((err: unknown) => {
        io.err(io.colors.yellow(`claude-a2a: steering refused: ${errorMessage(err)}\n`));
      });
  };
  lines.on("line", (line) => {
    if (line.trim() !== "") send(line);
  });
  return {
    stop: () => lines.close(),
    taskKnown: () => {
      for (const text of waiting.splice(0)) send(text);
    },
  };
}
