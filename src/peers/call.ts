import { Role, type Message, type Part, type SendMessageRequest } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { DelegatingTask } from "../a2a/task/task-delegation.js";
import { realTimers, type Timers } from "../common/timers.js";
import { DELEGATION_DEPTH_KEY } from "../contract/delegation.js";
import { textPart } from "../contract/messages.js";
import { peerStateStep, stateName } from "./decisions.js";
import { filePartsOf, PeerFileError, savePeerFiles } from "./files.js";
import type { Peer } from "./peer-client.js";
import { answerOf, applyPeerEvent, emptyView, fileParts, type PeerView } from "./peer-events.js";
import { refuse, type Refusal } from "../common/refusal.js";

/** What send_message asks: the peer, the text, files of the working directory, a context. */
export interface SendArgs {
  readonly agent: string;
  readonly text: string;
  readonly files?: readonly string[] | undefined;
  readonly contextId?: string | undefined;
}

export type CallOutcome =
  | {
      readonly ok: true;
      readonly agent: string;
      readonly taskId: string;
      readonly contextId: string;
      readonly text: string;
      /** Saved files, relative to the working directory. */
      readonly files: readonly string[];
      /** Why the peer's files were not saved (a symlink in the way): the call is then an error. */
      readonly filesRefused?: string;
    }
  | Refusal;

export interface CallContext {
  readonly peer: Peer;
  readonly task: DelegatingTask;
  /** Where files are read from and saved to: the session's working directory. */
  readonly cwd: string;
  readonly callTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** The MCP call's own signal (the runtime gave the call up). */
  readonly signal?: AbortSignal | undefined;
  readonly timers?: Timers;
}

const message = (
  parts: Part[],
  depth: number,
  ref: { taskId: string; contextId: string },
  from: string,
): Message => ({
  messageId: crypto.randomUUID(),
  contextId: ref.contextId,
  taskId: ref.taskId,
  role: Role.ROLE_USER,
  parts,
  metadata: { [DELEGATION_DEPTH_KEY]: depth },
  extensions: [],
  referenceTaskIds: [from],
});

const request = (m: Message): SendMessageRequest => ({
  tenant: "",
  message: m,
  configuration: undefined,
  metadata: undefined,
});

/**
 * One send_message call (docs/peers.md): the message goes to the peer with the depth and our
 * task's id (`referenceTaskIds`) and trace headers; its stream is read to the end, each state
 * change shown on our task (`delegated`), each prompt passed up to our caller
 * (`delegated_input`) and the answer sent back; its files saved, its usage added to ours. Our
 * task's end, the runtime giving the call up, or `callTimeoutMs` cancels the peer's task.
 */
export async function sendToPeer(c: CallContext, args: SendArgs): Promise<CallOutcome> {
  const { task, peer } = c;
  const timers = c.timers ?? realTimers;
  const call = task.begin();
  const timeout = new AbortController();
  const handle = timers.setTimeout(() => timeout.abort(), c.callTimeoutMs);
  const signal = AbortSignal.any([call.signal, timeout.signal, ...(c.signal ? [c.signal] : [])]);
  const view = emptyView();
  let client: Client | undefined;
  try {
    const parts = [textPart(args.text), ...(await filePartsOf(c.cwd, args.files ?? []))];
    client = await peer.connect();
    const depth = task.depth + 1;
    const options = { signal, serviceParameters: task.traceHeaders() };
    let next: Message | undefined = message(
      parts,
      depth,
      { taskId: "", contextId: args.contextId ?? "" },
      task.ref.taskId,
    );
    while (next !== undefined) {
      for await (const event of client.sendMessageStream(request(next), options)) {
        if (applyPeerEvent(view, event) && view.taskId !== "") {
          const ref = { agent: peer.name, taskId: view.taskId, contextId: view.contextId };
          task.progress(ref, stateName(view.state), view.statusText);
        }
      }
      next = undefined;
      if (peerStateStep(view.state) === "ask") {
        const answer = await task.ask(
          {
            agent: peer.name,
            peerTaskId: view.taskId,
            text: view.statusText,
            data: view.statusData,
            toolName: "mcp__a2a__send_message",
            input: { agent: args.agent, text: args.text },
          },
          signal,
        );
        if (answer.kind === "refused") {
          await cancelPeer(client, view, c.requestTimeoutMs);
          return refuse(`${peer.name} asked a question that was not answered: ${answer.reason}`);
        }
        next = message(answer.parts, depth, view, task.ref.taskId);
      }
    }
    return await outcome(c, view);
  } catch (err) {
    if (signal.aborted && client !== undefined) await cancelPeer(client, view, c.requestTimeoutMs);
    const why = timeout.signal.aborted
      ? `no answer within ${c.callTimeoutMs} ms (peers.callTimeoutMs); the peer's task was canceled`
      : call.signal.aborted
        ? "our task ended; the peer's task was canceled"
        : err instanceof Error
          ? err.message
          : String(err);
    return refuse(`The call to ${peer.name} failed: ${why}`);
  } finally {
    // Once, whatever the outcome: the peer's work is paid for even when the call failed.
    if (view.usage !== undefined) task.addUsage(view.usage);
    timers.clearTimeout(handle);
    call.done();
  }
}

async function outcome(c: CallContext, view: PeerView): Promise<CallOutcome> {
  const step = peerStateStep(view.state);
  if (step !== "done") {
    const state = stateName(view.state);
    const said = view.statusText === "" ? "" : `: ${view.statusText}`;
    return refuse(`${c.peer.name}'s task ${view.taskId} ended ${state}${said}`);
  }
  const answer = {
    ok: true as const,
    agent: c.peer.name,
    taskId: view.taskId,
    contextId: view.contextId,
    text: answerOf(view),
  };
  try {
    return {
      ...answer,
      files: await savePeerFiles(c.cwd, c.peer.name, view.taskId, fileParts(view)),
    };
  } catch (err) {
    // The answer is paid for: Claude gets it, with the refusal, rather than the refusal alone.
    if (!(err instanceof PeerFileError)) throw err;
    return { ...answer, files: [], filesRefused: err.message };
  }
}

/** Cancels the peer's task (best effort: it may have ended, or be unreachable). */
async function cancelPeer(client: Client, view: PeerView, timeoutMs: number): Promise<void> {
  if (view.taskId === "" || peerStateStep(view.state) === "done") return;
  try {
    await client.cancelTask(
      { tenant: "", id: view.taskId, metadata: undefined },
      { signal: AbortSignal.timeout(timeoutMs) },
    );
  } catch {
    // Ended already, or unreachable: nothing more to do from here.
  }
}
