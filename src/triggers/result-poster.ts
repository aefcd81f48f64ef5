import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { ServerCallContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { WebhookTrigger } from "../config/triggers-schema.js";
import { ForgeError } from "../forge/forge.js";
import type { FetchLike } from "../forge/http.js";
import { openForge } from "../forge/open.js";
import { CallerUser, callerName, type Caller } from "../identity/caller.js";
import type { TriggerEvent } from "./event.js";
import { commentBody, commentPlace } from "./result-comment.js";
import { waitForEnd } from "./task-end.js";

/**
 * A trigger's result comments (docs/triggers.md "Result comments"): after a firing starts a
 * task, the task's end is awaited through the request handler as the trigger's caller, and one
 * comment goes to the event's issue or request with the server's token for that forge. Every
 * outcome is one log line naming the trigger, the event id and the task; never the token.
 */

export interface ResultPosterOptions {
  readonly handler: A2ARequestHandler;
  /** The environment the forge tokens are read from (`result.forge.tokenEnv`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** The console's URL (`<publicUrl>/console/`), which a task link is made from. */
  readonly consoleUrl: string;
  readonly fetch?: FetchLike;
}

export class ResultPoster {
  private readonly watching = new Set<Promise<void>>();
  private readonly stop = new AbortController();

  constructor(private readonly o: ResultPosterOptions) {}

  /** Posts the task's result when it ends, if the trigger asks for it. Never throws. */
  watch(name: string, trigger: WebhookTrigger, event: TriggerEvent, taskId: string): void {
    const result = trigger.result;
    if (result === undefined || !result.comment) return;
    const where = { trigger: name, eventId: event.deliveryId, taskId };
    const place = commentPlace(event.subject, result.forge);
    if (!place.ok) {
      this.o.logger.warn(
        { ...where, outcome: "skipped", reason: place.reason },
        "trigger: no result comment",
      );
      return;
    }
    const opened = openForge(result.forge, this.o.env, this.o.fetch);
    if (!opened.ok) {
      this.o.logger.warn(
        { ...where, outcome: "failed", reason: opened.reason },
        "trigger: result comment failed",
      );
      return;
    }
    const run = (async () => {
      const task = await waitForEnd(this.o.handler, callerContext(name), taskId, {
        signal: this.stop.signal,
      });
      if (task === undefined) return;
      const body = commentBody({
        trigger: name,
        task,
        consoleUrl: this.o.consoleUrl,
        maxAnswerChars: result.maxAnswerChars,
      });
      const posted = await opened.forge.comment(place.target, body);
      this.o.logger.info(
        { ...where, outcome: "commented", ...(posted.url && { url: posted.url }) },
        "trigger: result comment posted",
      );
    })().catch((err: unknown) => {
      const reason = err instanceof ForgeError ? err.message : `${(err as Error).message}`;
      this.o.logger.warn({ ...where, outcome: "failed", reason }, "trigger: result comment failed");
    });
    this.watching.add(run);
    void run.finally(() => this.watching.delete(run));
  }

  /** Stops waiting for tasks (shutdown): nothing more is posted. */
  close(): void {
    this.stop.abort();
  }

  /** Resolves once every comment under way has been posted or given up. */
  async settled(): Promise<void> {
    while (this.watching.size > 0) await Promise.all([...this.watching]);
  }
}

/** A call of the request handler as the trigger's caller: it sees that caller's tasks. */
function callerContext(name: string): ServerCallContext {
  const caller: Caller = { kind: "trigger", name };
  return new ServerCallContext({
    user: new CallerUser(caller),
    state: new Map<string, unknown>([["caller", callerName(caller)]]),
  });
}
