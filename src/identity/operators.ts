import { ownerKey } from "./caller.js";

/**
 * The operator role (`server.operators`): callers who may see and answer every caller's tasks, so
 * the person responsible for a server can grant what a driving agent's task asks. Who has it is
 * decided once from the config (`operatorScopes`); what it allows is one pure decision
 * (`mayAct`) the request handler asks before it serves a task of another caller.
 */

/** An `oidc:<subject>` entry of `server.operators` names an OpenID Connect caller. */
export const OIDC_OPERATOR_PREFIX = "oidc:";

/** What `server.operators` entries are resolved against: the callers the config names. */
export interface OperatorNames {
  /** `server.operators`. */
  readonly operators: readonly string[];
  /** The names of `server.auth.tokens`. */
  readonly tokens: readonly string[];
  /** `server.allowedLogins`. */
  readonly logins: readonly string[];
}

/**
 * The scopes (`ownerKey`) of the callers with the role: a bare entry is the token of that name or
 * the allowed login of that name (the config refuses an entry that is both, or neither), an
 * `oidc:<subject>` entry the OpenID Connect caller with that subject. Pure.
 */
export function operatorScopes(o: OperatorNames): ReadonlySet<string> {
  const scopes = new Set<string>();
  for (const entry of o.operators) {
    if (entry.startsWith(OIDC_OPERATOR_PREFIX)) {
      const subject = entry.slice(OIDC_OPERATOR_PREFIX.length);
      if (subject !== "") scopes.add(ownerKey({ kind: "oidc", subject }));
      continue;
    }
    if (o.tokens.includes(entry)) scopes.add(ownerKey({ kind: "token", name: entry }));
    if (o.logins.includes(entry)) scopes.add(ownerKey({ kind: "login", login: entry }));
  }
  return scopes;
}

/**
 * What a request does to a task it names:
 * - `read`: GetTask (ListTasks is `read` of every task it lists);
 * - `subscribe`: SubscribeToTask;
 * - `answer`: a message naming a task parked in input-required (a question's answer, a
 *   permission's allow or deny): the only thing a message naming a live task can do;
 * - `cancel`: CancelTask;
 * - `push_config`: create, get, list or delete a push-notification config of the task;
 * - `start`: new work in the task's conversation (a message that is no answer).
 */
export type TaskAction = "read" | "subscribe" | "answer" | "cancel" | "push_config" | "start";

/** Who asks: the caller's scope, and whether it has the operator role. */
export interface Actor {
  readonly owner: string;
  readonly operator: boolean;
}

/**
 * - `own`: the caller's own task, served in its own scope as always;
 * - `operator`: another caller's task, served in its owner's scope on the operator's behalf (the
 *   owner is told who answered or canceled, and it is logged);
 * - `none`: another caller's task, exactly as if it did not exist (TaskNotFound).
 */
export type Access = "own" | "operator" | "none";

/**
 * May `actor` do `action` to a task of `taskOwner`? A caller always may on its own tasks and never
 * on another's, unless it is an operator: then it may read, follow, answer and cancel, but not
 * set another caller's webhooks (where the task's events are sent stays its owner's choice) and
 * not start work in another caller's conversation (new work goes into the operator's own: a
 * message that names no task is always in its sender's conversation). Pure.
 */
export function mayAct(actor: Actor, taskOwner: string, action: TaskAction): Access {
  if (taskOwner === actor.owner) return "own";
  if (!actor.operator) return "none";
  switch (action) {
    case "read":
    case "subscribe":
    case "answer":
    case "cancel":
      return "operator";
    case "push_config":
    case "start":
      return "none";
  }
}

/**
 * Key in `ServerCallContext.state` of the operator a request acts for (its caller's name, as
 * logs show it): set only when an operator acts on another caller's task.
 */
export const OPERATOR_STATE_KEY = "operator";

/**
 * Key in `ServerCallContext.state` of the operator a message naming a task comes from, its own
 * task or another caller's: a merge approval only an operator may answer reads it.
 */
export const OPERATOR_ROLE_STATE_KEY = "operatorRole";

/** The name of the operator a message naming a task comes from, if its caller has the role. */
export function answeringOperator(
  state: ReadonlyMap<string, unknown> | undefined,
): string | undefined {
  const name = state?.get(OPERATOR_ROLE_STATE_KEY);
  return typeof name === "string" ? name : undefined;
}

/** Key in `ServerCallContext.state`: the request is an operator's ListTasks over every caller. */
export const EVERY_OWNER_STATE_KEY = "everyOwner";

/** The name an operator's answer or cancel is told and logged with, if the request has one. */
export function actingOperator(
  state: ReadonlyMap<string, unknown> | undefined,
): string | undefined {
  const name = state?.get(OPERATOR_STATE_KEY);
  return typeof name === "string" ? name : undefined;
}
