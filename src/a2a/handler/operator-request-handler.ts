import type {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import { ServerCallContext, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { callerName, CallerUser, ownerKey } from "../../identity/caller.js";
import { callContextOf, ownerOf } from "../../identity/conversation.js";
import {
  EVERY_OWNER_STATE_KEY,
  mayAct,
  OPERATOR_ROLE_STATE_KEY,
  OPERATOR_STATE_KEY,
  type Access,
  type TaskAction,
} from "../../identity/operators.js";
import { stampAnswer, withOwner } from "../../contract/operator.js";
import { HandlerLayer } from "./handler-layer.js";
import { atOrAfter, listedTrigger } from "./list-filter.js";

/** What the operator role needs besides the request handler. */
export interface OperatorAccess {
  /** The scopes of the callers with the role (`operatorScopes` of `server.operators`). */
  readonly operators: ReadonlySet<string>;
  /** Whose a task is, whoever asks (the store's `EveryOwnerTasks`). */
  ownerOf(taskId: string, tenant: string): Promise<string | undefined>;
  /** Tells the executor that the next cancel of `taskId` is this operator's (undefined: none). */
  cancelingOperator(taskId: string, operator: string | undefined): void;
}

export interface OperatorHandlerOptions {
  readonly access: OperatorAccess;
}

/** How a request that names a task is served. */
interface Scoped {
  readonly context: ServerCallContext;
  readonly access: Access;
  /** The task's owner, when an operator acts for it. */
  readonly owner?: string;
  /** The operator's name, when it acts for another caller. */
  readonly operator?: string;
}

/**
 * The request handler with the operator role: a caller `server.operators` names sees and answers
 * every caller's tasks, on every binding (they all share this handler). A request of an operator
 * that names another caller's task is served in that task's owner's scope, as if the owner had
 * sent it (so the SDK, the guard and the executor need no second notion of scope), with the
 * operator's name in the request's state: the executor tells the owner and logs it. What an
 * operator may do is `mayAct`'s decision; anything else of another caller's stays unknown to it.
 * A caller without the role takes exactly the path it took before (no extra lookup).
 */
export class OperatorRequestHandler extends HandlerLayer {
  private readonly access: OperatorAccess;

  constructor(inner: A2ARequestHandler, o: OperatorHandlerOptions) {
    super(inner);
    this.access = o.access;
  }

  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const scoped = await this.scope(context, params.id, "read");
    const task = await this.inner.getTask(params, scoped.context);
    return this.isOperator(context) ? withOwner(task, scoped.owner ?? ownerOf(context)) : task;
  }

  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    // `statusTimestampAfter` as the proto means it (`list-filter.ts`), for every caller.
    const filtered = atOrAfter(params);
    const trigger = listedTrigger(context);
    if (trigger !== undefined) return this.listTrigger(filtered, context, trigger);
    if (!this.isOperator(context)) return this.inner.listTasks(filtered, context);
    // The store lists every caller's tasks for this request (`EveryOwnerListing`), each with
    // its owner; the SDK checks the request and trims histories as for any caller.
    context.state.set(EVERY_OWNER_STATE_KEY, true);
    return this.inner.listTasks(filtered, context);
  }

  /**
   * One trigger's tasks: every task a trigger starts is its caller's (`trigger:<name>`), so they
   * are that scope's list, read with the store's own per-caller index. An operator reads it (each
   * task with its `metadata.owner`); a caller without the role sees none of another's tasks, so
   * it gets an empty page (the request still checked as any other).
   */
  private async listTrigger(
    params: ListTasksRequest,
    context: ServerCallContext,
    trigger: string,
  ): Promise<ListTasksResponse> {
    const scope = ownerKey({ kind: "trigger", name: trigger });
    if (ownerOf(context) === scope) return this.inner.listTasks(params, context);
    if (!this.isOperator(context)) {
      const listed = await this.inner.listTasks(params, context);
      return { ...listed, tasks: [], nextPageToken: "", totalSize: 0 };
    }
    const listed = await this.inner.listTasks(params, inScope(context, scope));
    return { ...listed, tasks: listed.tasks.map((t) => withOwner(t, scope)) };
  }

  // Not an async generator itself: a caller without the role gets the SDK's generator as it is,
  // which subscribes to the task's bus on its first step, with no lookup awaited before it.
  override resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.isOperator(context)) return this.inner.resubscribe(params, context);
    return this.resubscribeScoped(params, context);
  }

  private async *resubscribeScoped(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const scoped = await this.scope(context, params.id, "subscribe");
    yield* this.inner.resubscribe(params, scoped.context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const scoped = await this.scope(context, params.id, "cancel");
    if (scoped.operator === undefined) return this.inner.cancelTask(params, scoped.context);
    this.access.cancelingOperator(params.id, scoped.operator);
    try {
      return await this.inner.cancelTask(params, scoped.context);
    } finally {
      this.access.cancelingOperator(params.id, undefined);
    }
  }

  override sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (!this.mayAnswerForOthers(params, context)) {
      return this.inner.sendMessage(stamped(params, undefined), context);
    }
    return this.sendScope(params, context).then((s) => this.inner.sendMessage(s.params, s.context));
  }

  override sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.mayAnswerForOthers(params, context)) {
      return this.inner.sendMessageStream(stamped(params, undefined), context);
    }
    return this.sendStreamScoped(params, context);
  }

  private async *sendStreamScoped(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const scoped = await this.sendScope(params, context);
    yield* this.inner.sendMessageStream(scoped.params, scoped.context);
  }

  /** An operator's message naming a task: the only send that may be another caller's. */
  private mayAnswerForOthers(params: SendMessageRequest, context: ServerCallContext): boolean {
    return Boolean(params.message?.taskId) && this.isOperator(context);
  }

  /**
   * A message naming a task can only answer it (the guard refuses one for a working task, the
   * SDK one for an ended task): `answer`. A message naming none is new work, always in its
   * sender's own conversation, whatever its contextId: the operator's own. An answer for another
   * caller names its operator in its metadata, which the task's history keeps.
   */
  private async sendScope(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<{ params: SendMessageRequest; context: ServerCallContext }> {
    const taskId = params.message?.taskId;
    if (!taskId) return { params: stamped(params, undefined), context };
    // Its own task or another's: an answer only an operator may give reads it (a merge's).
    if (this.isOperator(context)) context.state.set(OPERATOR_ROLE_STATE_KEY, operatorName(context));
    const scoped = await this.scope(context, taskId, "answer");
    return { params: stamped(params, scoped.operator), context: scoped.context };
  }

  private isOperator(context: ServerCallContext): boolean {
    return this.access.operators.size > 0 && this.access.operators.has(ownerOf(context));
  }

  /** The context to serve a request naming `taskId` in: the caller's own, or its owner's. */
  private async scope(
    context: ServerCallContext,
    taskId: string,
    action: TaskAction,
  ): Promise<Scoped> {
    if (!this.isOperator(context)) return { context, access: "own" };
    const caller = ownerOf(context);
    const owner = await this.access.ownerOf(taskId, context.tenant ?? "");
    // Unknown, or the operator's own: served as any caller's request is.
    if (owner === undefined || owner === caller) return { context, access: "own" };
    const access = mayAct({ owner: caller, operator: true }, owner, action);
    if (access !== "operator") return { context, access };
    const operator = operatorName(context);
    return { context: actingFor(context, owner, operator), access, owner, operator };
  }
}

/** `params` with its message stamped (`stampAnswer`); the same object when nothing changes. */
function stamped(params: SendMessageRequest, operator: string | undefined): SendMessageRequest {
  const message = params.message;
  if (message === undefined) return params;
  const next = stampAnswer(message, operator);
  return next === message ? params : { ...params, message: next };
}

/** The operator's name as logs and the owner's stream show it: its login, token name or subject. */
function operatorName(context: ServerCallContext): string {
  const user = context.user;
  return user instanceof CallerUser ? callerName(user.caller) : ownerOf(context);
}

/** The request's context in `owner`'s scope, to read (its state untouched: no one acts). */
function inScope(context: ServerCallContext, owner: string): ServerCallContext {
  const user = callContextOf(owner).user;
  return new ServerCallContext({
    ...(user && { user }),
    ...(context.tenant !== undefined && { tenant: context.tenant }),
    ...(context.requestedExtensions !== undefined && {
      requestedExtensions: context.requestedExtensions,
    }),
    requestedVersion: context.requestedVersion,
    state: context.state,
  });
}

/**
 * The request's context in `owner`'s scope: its tenant, version and extensions, and the same
 * state (the binding reads its refusals and spans there), which now names the operator.
 */
function actingFor(context: ServerCallContext, owner: string, operator: string): ServerCallContext {
  context.state.set(OPERATOR_STATE_KEY, operator);
  return inScope(context, owner);
}
