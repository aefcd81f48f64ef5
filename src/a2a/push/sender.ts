import type { StreamResponse, Task, TaskPushNotificationConfig } from "@a2a-js/sdk";
import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
} from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { decideDelivery, type AttemptResult, type DropReason } from "./delivery-decision.js";
import { pushTargetPolicy, resolvePushTarget, type PushTargetPolicy } from "./target.js";
import { postPinned, type PostWebhook } from "./webhook-post.js";
import { WebhookQueues } from "./webhook-queues.js";

export interface PushSenderOptions {
  /** Tries per notification and webhook (default 4). */
  readonly attempts?: number;
  /** Wait before the first retry, doubled each time (default 500 ms). */
  readonly backoffMs?: number;
  /** The longest `Retry-After` of a 429 or 503 honoured (default 30 s). */
  readonly maxRetryAfterMs?: number;
  /** Each notification given up, once (the drop metric); default: none. */
  readonly onDrop?: (reason: DropReason) => void;
  /** The clock `Retry-After` dates are read against (default: `Date.now`). */
  readonly now?: () => number;
  /** One POST's time limit (default 5 s). */
  readonly timeoutMs?: number;
  /** Which webhooks may be reached (default: public addresses only, system DNS). */
  readonly targets?: PushTargetPolicy;
  /** The transport (default: node:http(s) pinned to the checked addresses). */
  readonly post?: PostWebhook;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * `server.compat.v03`: a webhook registered by a v0.3 request gets v0.3 bodies (the bare
   * task or event, `application/json`), as the SDK's `createLegacyAwarePushNotificationSender`
   * sends them. Default: every webhook gets v1.0 bodies.
   */
  readonly compatV03?: boolean;
  /**
   * The W3C trace-context headers of a task's span (`traceparent`, `tracestate`), sent with its
   * notifications so the receiver's work joins the same trace; default: none.
   */
  readonly traceHeaders?: (taskId: string) => Record<string, string>;
}

/** A stored config and the protocol version of the request that registered it. */
interface Target {
  readonly config: TaskPushNotificationConfig;
  readonly wireVersion: string;
}

const V03 = "0.3";

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Push notifications as the spec's v1.0 body (the SDK's own serializer), POSTed to every webhook
 * of the task; with `compatV03`, in the wire format each webhook was registered with (the SDK's
 * v0.3 serializer for a v0.3 registration). Each webhook of a task has its own queue
 * (`WebhookQueues`): its notifications go in the task's event order, and a slow or refusing
 * webhook delays only itself. Unlike the SDK's sender, a failed delivery is retried (bounded,
 * exponential backoff, or the webhook's `Retry-After`) or dropped as `decideDelivery` says, each
 * drop logged once and counted; never thrown: a webhook never blocks or fails a task. `send`
 * returns once the configs are read; delivery goes on after. Every attempt checks the webhook
 * again against what its host resolves to now (target.ts) and connects only to the addresses it
 * checked: a refused target is logged, never contacted.
 */
export class RetryingPushSender implements PushNotificationSender {
  private readonly serializer = new V1PushNotificationSerializer();
  private readonly legacySerializer: PushNotificationSerializer | undefined;
  private readonly queues = new WebhookQueues();
  /** Task and webhook pairs whose refusal was logged at warn level: the rest go to debug. */
  private readonly refusalsLogged = new Set<string>();
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly onDrop: (reason: DropReason) => void;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly targets: PushTargetPolicy;
  private readonly post: PostWebhook;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly traceHeaders: (taskId: string) => Record<string, string>;

  constructor(
    private readonly store: PushNotificationStore,
    private readonly logger: Logger,
    options: PushSenderOptions = {},
  ) {
    this.attempts = options.attempts ?? 4;
    this.backoffMs = options.backoffMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    this.onDrop = options.onDrop ?? (() => undefined);
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.targets = options.targets ?? pushTargetPolicy(false);
    this.post = options.post ?? postPinned;
    this.sleep = options.sleep ?? defaultSleep;
    this.legacySerializer = options.compatV03 ? new V03PushNotificationSerializer() : undefined;
    this.traceHeaders = options.traceHeaders ?? (() => ({}));
  }

  async send(
    streamResponse: StreamResponse,
    context: ServerCallContext,
    task?: Task,
  ): Promise<void> {
    const taskId = taskIdOf(streamResponse);
    if (taskId === undefined) return;
    // Now, while the task's span is surely open: a delivery may come after the task has ended.
    const trace = this.traceHeaders(taskId);
    let targets: Target[];
    try {
      targets = await this.targetsOf(taskId, context);
    } catch (err) {
      this.logger.warn({ err, taskId }, "push configs could not be read");
      return;
    }
    if (targets.length === 0) return;
    const v1 = this.serializer.serialize(streamResponse, task);
    const legacy = this.legacySerializer?.serialize(streamResponse, task);
    for (const { config, wireVersion } of targets) {
      const { body, contentType } = wireVersion === V03 && legacy ? legacy : v1;
      // A webhook is its config: the same URL under two configs gets both, each in order.
      this.queues.enqueue(taskId, `${config.id}\u0000${config.url}`, () =>
        this.deliver(config, body, contentType, taskId, trace),
      );
    }
  }

  /**
   * The task's webhooks. With compat, each with the version it was registered over (both SDK
   * stores record it); a store that does not is read as the SDK's sender reads it: the version
   * of the request at hand (A2A: none means 0.3).
   */
  private async targetsOf(taskId: string, context: ServerCallContext): Promise<Target[]> {
    if (this.legacySerializer === undefined || this.store.loadWithMetadata === undefined) {
      const wireVersion = this.legacySerializer ? context.requestedVersion || V03 : "1.0";
      return (await this.store.load(taskId, context)).map((config) => ({ config, wireVersion }));
    }
    return (await this.store.loadWithMetadata(taskId, context)).map((stored) => ({
      config: stored.config,
      wireVersion: stored.wireVersion || V03,
    }));
  }

  /** Resolves when everything queued for a task so far was delivered or given up (tests). */
  idle(taskId: string): Promise<void> {
    return this.queues.idle(taskId);
  }

  private async deliver(
    config: TaskPushNotificationConfig,
    body: string,
    contentType: string,
    taskId: string,
    trace: Record<string, string>,
  ): Promise<void> {
    const headers: Record<string, string> = { ...trace, "Content-Type": contentType };
    const auth = config.authentication;
    // Both when both are set: the token lets the receiver check the notification is this
    // task's, the credentials let the server in.
    if (auth?.scheme && auth.credentials)
      headers.Authorization = `${auth.scheme} ${auth.credentials}`;
    if (config.token) headers["X-A2A-Notification-Token"] = config.token;
    // Only the origin is logged: a webhook URL may carry a secret in its path or query.
    const where = { taskId, webhookId: config.id, webhook: safeOrigin(config.url) };
    const policy = {
      attempts: this.attempts,
      backoffMs: this.backoffMs,
      maxRetryAfterMs: this.maxRetryAfterMs,
    };
    for (let attempt = 1; ; attempt++) {
      let result: AttemptResult;
      const target = await resolvePushTarget(config.url, this.targets);
      if (target.ok) {
        try {
          const answer = await this.post({
            url: target.url,
            addresses: target.addresses,
            headers,
            body,
            timeoutMs: this.timeoutMs,
          });
          result = { kind: "answered", ...answer };
        } catch (err) {
          result = { kind: "failed", message: err instanceof Error ? err.message : String(err) };
        }
      } else if (target.retry) {
        result = { kind: "failed", message: target.reason };
      } else {
        this.logRefusal(taskId, config.url, where, target.reason);
        this.onDrop("refused");
        return;
      }
      const decision = decideDelivery(result, attempt, policy, this.now());
      switch (decision.kind) {
        case "delivered":
          return;
        case "drop":
          this.logger.warn(
            {
              ...where,
              status: decision.status,
              reason: decision.reason,
              attempts: attempt,
              failure: decision.failure,
            },
            "push notification not delivered",
          );
          this.onDrop(decision.reason);
          return;
        case "retry":
          this.logger.info(
            { ...where, attempt, failure: decision.failure, retryInMs: decision.delayMs },
            "push notification retried",
          );
          await this.sleep(decision.delayMs);
          break;
        default: {
          const never: never = decision;
          throw new Error(`unknown decision ${String(never)}`);
        }
      }
    }
  }

  /**
   * Once per task and webhook at warn level (a stored config refused at every event of a
   * streamed answer would flood the log), then at debug. Bounded: forgotten wholesale past 1000.
   */
  private logRefusal(
    taskId: string,
    url: string,
    where: Record<string, string>,
    reason: string,
  ): void {
    const key = `${taskId}\u0000${url}`;
    const first = !this.refusalsLogged.has(key);
    if (first) {
      if (this.refusalsLogged.size >= 1000) this.refusalsLogged.clear();
      this.refusalsLogged.add(key);
    }
    this.logger[first ? "warn" : "debug"]({ ...where, reason }, "push notification refused");
  }
}

function taskIdOf(response: StreamResponse): string | undefined {
  const p = response.payload;
  switch (p?.$case) {
    case "task":
      return p.value.id || undefined;
    case "statusUpdate":
    case "artifactUpdate":
    case "message":
      return p.value.taskId || undefined;
    case undefined:
      return undefined;
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "<invalid url>";
  }
}
