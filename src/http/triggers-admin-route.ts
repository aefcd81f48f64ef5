import type { IRouter, Request, RequestHandler } from "express";
import { HTTP_STATUS } from "../contract/wire-codes.js";
import { TRIGGERS_PATH } from "../contract/triggers.js";
import type { TriggerOperations } from "../triggers/operations.js";
import { callerOf } from "./caller.js";

/**
 * An operator's triggers (docs/triggers.md "Operating triggers"), under the agent's base (`/` or
 * `/agents/<name>/`), behind the auth gate and the workspace's access check:
 * - `GET /triggers`: each trigger with its last and next firing;
 * - `POST /triggers/<name>/fire`: one firing now, answered as a delivery is (202 and the task).
 * A caller without the operator role gets 403 before any trigger is looked up, so it learns
 * nothing of their names; an unknown trigger is 404; neither starts anything.
 */

export const NOT_AN_OPERATOR =
  "Only an operator may see and fire triggers: server.operators does not name this caller.";

const nameOf = (req: Request): string => String(req.params.trigger ?? "");

export function mountTriggersAdmin(
  router: IRouter,
  ops: TriggerOperations,
  access: readonly RequestHandler[],
): void {
  const operatorOnly: RequestHandler = (req, res, next) => {
    if (ops.isOperator(callerOf(req))) return next();
    res.status(HTTP_STATUS.FORBIDDEN).json({ error: "forbidden", message: NOT_AN_OPERATOR });
  };
  router.get(TRIGGERS_PATH, ...access, operatorOnly, (_req, res, next) => {
    ops.list().then((listing) => void res.json(listing), next);
  });
  router.post(`${TRIGGERS_PATH}/:trigger/fire`, ...access, operatorOnly, (req, res, next) => {
    const name = nameOf(req);
    ops.fire(name).then((answer) => {
      if (answer === undefined) {
        return void res
          .status(HTTP_STATUS.NOT_FOUND)
          .json({ error: "not_found", message: `No trigger "${name}".` });
      }
      res.status(answer.status).json(answer.body);
    }, next);
  });
}
