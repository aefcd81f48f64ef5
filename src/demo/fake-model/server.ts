import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EventEmitter } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { parseRequest } from "./request.js";
import { pickRule, reply as makeReply, ruleName, text } from "./rules.js";
import { encodeSse, messageEvents, messageJson, type IdSource } from "./sse.js";
import type {
  MessageReply,
  ParsedRequest,
  RecordedRequest,
  Reply,
  ReplySource,
  Rule,
} from "./types.js";

export interface FakeModelOptions {
  readonly rules?: readonly Rule[];
  /** Answer to a request no rule matched (it is still recorded in `unmatched`). */
  readonly fallback?: ReplySource;
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /**
   * How many recorded requests (and unmatched ones) are kept, the oldest dropped first; default
   * all. A long-running model (the demo, the bench's process) bounds it: each request holds its
   * whole body, the conversation so far included, so keeping every one grows with the square of
   * a conversation's length.
   */
  readonly keep?: number;
}

const DEFAULT_FALLBACK: ReplySource = makeReply(text("[fake-model] no rule matched this request"));
const MAX_BODY = 64 * 1024 * 1024;

/**
 * A scripted Anthropic Messages API. The real Claude Code runtime talks to it through
 * ANTHROPIC_BASE_URL; rules decide each reply; every request is recorded (the latest `keep`).
 */
export class FakeModel {
  readonly requests: RecordedRequest[] = [];
  readonly unmatched: ParsedRequest[] = [];
  private rules: Rule[];
  private readonly uses = new Map<Rule, number>();
  private readonly events = new EventEmitter();
  private seq = 0;
  private nextMessage = 0;
  private nextToolUse = 0;
  private readonly ids: IdSource = {
    messageId: () => `msg_fake_${String(++this.nextMessage).padStart(4, "0")}`,
    toolUseId: () => `toolu_fake_${String(++this.nextToolUse).padStart(4, "0")}`,
  };

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: FakeModelOptions,
  ) {
    this.rules = [...(options.rules ?? [])];
  }

  static async start(options: FakeModelOptions = {}): Promise<FakeModel> {
    const server = createServer();
    const host = options.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    const model = new FakeModel(server, `http://${host}:${port}`, options);
    server.on("request", (req, res) => {
      model.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, apiError("api_error", String(err)));
        else res.destroy();
      });
    });
    return model;
  }

  /** Rules added later are tried after the existing ones. */
  addRules(...rules: Rule[]): void {
    this.rules.push(...rules);
  }

  /** Replaces the whole script (use counts are kept per rule object). */
  setRules(rules: readonly Rule[]): void {
    this.rules = [...rules];
  }

  /** Model requests (POST /v1/messages) seen so far. */
  get messageRequests(): ParsedRequest[] {
    return this.requests.map((r) => r.request).filter((r) => r.path === "/v1/messages");
  }

  /**
   * Resolves with the first request, past or future, with `seq > afterSeq` that satisfies `pred`.
   * Rejects after `timeoutMs` so a test fails with a reason instead of hanging.
   */
  waitForRequest(
    pred: (req: ParsedRequest) => boolean,
    { afterSeq = 0, timeoutMs = 30_000 }: { afterSeq?: number; timeoutMs?: number } = {},
  ): Promise<ParsedRequest> {
    const seen = this.requests.find((r) => r.request.seq > afterSeq && pred(r.request));
    if (seen) return Promise.resolve(seen.request);
    return new Promise((resolve, reject) => {
      const onRequest = (req: ParsedRequest) => {
        if (req.seq <= afterSeq || !pred(req)) return;
        clearTimeout(timer);
        this.events.off("request", onRequest);
        resolve(req);
      };
      const timer = setTimeout(() => {
        this.events.off("request", onRequest);
        reject(new Error(`fake model: no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      this.events.on("request", onRequest);
    });
  }

  get lastSeq(): number {
    return this.seq;
  }

  async close(): Promise<void> {
    this.events.removeAllListeners();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method !== "POST") return sendJson(res, 404, apiError("not_found_error", "not found"));
    const body = await readJson(req);
    if (body === undefined)
      return sendJson(res, 400, apiError("invalid_request_error", "bad JSON"));
    const parsed = parseRequest(++this.seq, path, body);

    if (path === "/v1/messages/count_tokens") {
      this.record(parsed, "count_tokens");
      return sendJson(res, 200, { input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
    }
    if (path !== "/v1/messages") {
      this.record(parsed, "404");
      return sendJson(res, 404, apiError("not_found_error", `no such endpoint ${path}`));
    }

    const picked = pickRule(this.rules, this.uses, parsed);
    let source: ReplySource;
    if (picked) {
      this.uses.set(picked.rule, (this.uses.get(picked.rule) ?? 0) + 1);
      this.record(parsed, ruleName(picked.rule, picked.index));
      source = picked.rule.reply;
    } else {
      this.unmatched.push(parsed);
      this.trim(this.unmatched);
      this.record(parsed, undefined);
      source = this.options.fallback ?? DEFAULT_FALLBACK;
    }
    const answer: Reply = typeof source === "function" ? await source(parsed) : source;
    await this.respond(res, parsed, answer);
  }

  private record(request: ParsedRequest, rule: string | undefined): void {
    this.requests.push({ request, rule });
    this.trim(this.requests);
    this.events.emit("request", request);
  }

  private trim(kept: unknown[]): void {
    const keep = this.options.keep;
    if (keep !== undefined && kept.length > keep) kept.splice(0, kept.length - keep);
  }

  private async respond(res: ServerResponse, req: ParsedRequest, answer: Reply): Promise<void> {
    switch (answer.kind) {
      case "overloaded":
        return sendJson(
          res,
          529,
          apiError("overloaded_error", "Overloaded (injected by fake model)"),
        );
      case "bad_request":
        return sendJson(
          res,
          400,
          apiError(
            "invalid_request_error",
            answer.message ?? "Bad request (injected by fake model)",
          ),
        );
      case "drop":
        return this.streamMessage(res, req, answer.reply, answer.afterEvents);
      case "message":
        if (!req.stream) return sendJson(res, 200, messageJson(answer, req.model, this.ids));
        return this.streamMessage(res, req, answer, Infinity);
    }
  }

  private async streamMessage(
    res: ServerResponse,
    req: ParsedRequest,
    answer: MessageReply,
    dropAfter: number,
  ): Promise<void> {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "request-id": `req_fake_${req.seq}`,
    });
    res.flushHeaders();
    let sent = 0;
    for (const event of messageEvents(answer, req.model || "claude-fake", this.ids)) {
      if (sent >= dropAfter) {
        // Flush what was sent, then close the connection without ending the chunked body.
        res.socket?.destroySoon();
        return;
      }
      if (event.delayed && answer.chunkDelayMs) await delay(answer.chunkDelayMs);
      // The client went away (e.g. the runtime was interrupted): stop quietly.
      if (res.destroyed || res.writableEnded) return;
      res.write(encodeSse(event));
      sent++;
    }
    res.end();
  }
}

function apiError(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(buf);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
