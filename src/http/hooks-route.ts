import express, {
  type ErrorRequestHandler,
  type IRouter,
  type Request,
  type RequestHandler,
} from "express";
import type { TriggerReceiver } from "../triggers/receiver.js";
import { HOOKS_PATH } from "../contract/triggers.js";
import { classifyBodyError } from "./body.js";

/**
 * `POST /hooks/<trigger>` (under `/agents/<name>/` for a workspace): a webhook delivery for one of
 * the workspace's triggers (docs/triggers.md). Not behind the auth gate: the sender proves itself
 * with the trigger's signature, checked on the raw body, which is kept as bytes for that. An
 * unknown trigger is 404 before the body is read; a body over the trigger's cap, 413.
 */

const triggerOf = (req: Request): string => String(req.params.trigger ?? "");

export function mountHooks(router: IRouter, receiver: TriggerReceiver): void {
  const known: RequestHandler = (req, res, next) => {
    if (receiver.trigger(triggerOf(req)) !== undefined) return next();
    res.status(404).json({ error: "not_found", message: `No trigger "${triggerOf(req)}".` });
  };
  // Each trigger's own cap, read as bytes whatever the content type says (one parser each).
  const parsers = new Map<string, RequestHandler>();
  const raw: RequestHandler = (req, res, next) => {
    const name = triggerOf(req);
    let parser = parsers.get(name);
    if (parser === undefined) {
      const limit = receiver.trigger(name)?.maxBodyBytes ?? 0;
      parser = express.raw({ type: () => true, limit });
      parsers.set(name, parser);
    }
    parser(req, res, next);
  };
  const tooLarge: ErrorRequestHandler = (err, req, res, next) => {
    const limit = receiver.trigger(triggerOf(req))?.maxBodyBytes ?? 0;
    const problem = classifyBodyError(err, limit);
    if (problem === undefined) return next(err);
    const reason =
      problem.status === 413
        ? `the body is over ${limit} bytes (maxBodyBytes)`
        : "the body could not be read";
    const answer = receiver.refuse(triggerOf(req), problem.status, reason);
    res.status(answer.status).json(answer.body);
  };
  const deliver: RequestHandler = (req, res, next) => {
    const body: unknown = req.body;
    receiver
      .receive(triggerOf(req), req.headers, Buffer.isBuffer(body) ? body : Buffer.alloc(0))
      .then((answer) => void res.status(answer.status).json(answer.body), next);
  };
  router.post(`${HOOKS_PATH}/:trigger`, known, raw, deliver, tooLarge);
}
