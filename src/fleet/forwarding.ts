import { Message, Task } from "@a2a-js/sdk";
import {
  A2AError,
  ContentTypeNotSupportedError,
  InvalidAgentResponseError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { ServerCallContext, type User } from "@a2a-js/sdk/server";
import { CallerUser, type Caller } from "../identity/caller.js";
import type { CallerSnapshot, CommandReply } from "./commands.js";

/** `ServerCallContext.state` key of the caller's name (`CALLER_STATE_KEY` in src/http/app.ts). */
const CALLER_STATE_KEY = "caller";

/** The caller of a request, as a forwarded command carries it. */
export function snapshotCaller(context: ServerCallContext): CallerSnapshot & { caller?: Caller } {
  const user = context.user;
  return {
    tenant: context.tenant,
    userName: user?.userName ?? "",
    isAuthenticated: user?.isAuthenticated ?? false,
    name: context.state.get(CALLER_STATE_KEY),
    requestedVersion: context.requestedVersion,
    ...(context.requestedExtensions && { requestedExtensions: [...context.requestedExtensions] }),
    ...(context.activatedExtensions && { activatedExtensions: [...context.activatedExtensions] }),
    ...(user instanceof CallerUser && { caller: user.caller }),
  };
}

/** The owner's call context for a forwarded command: the same caller, in the same scope. */
export function contextOf(snapshot: CallerSnapshot & { caller?: Caller }): ServerCallContext {
  const user: User =
    snapshot.caller !== undefined
      ? new CallerUser(snapshot.caller)
      : { isAuthenticated: snapshot.isAuthenticated, userName: snapshot.userName };
  const context = new ServerCallContext({
    user,
    ...(snapshot.tenant !== undefined && { tenant: snapshot.tenant }),
    ...(snapshot.requestedVersion !== undefined && { requestedVersion: snapshot.requestedVersion }),
    ...(snapshot.requestedExtensions && { requestedExtensions: [...snapshot.requestedExtensions] }),
    state: new Map<string, unknown>([[CALLER_STATE_KEY, snapshot.name]]),
  });
  for (const uri of snapshot.activatedExtensions ?? []) context.addActivatedExtension(uri);
  return context;
}

/** A send's result as a reply carries it. */
export const sendResultJson = (result: Message | Task): unknown =>
  "role" in result ? { message: Message.toJSON(result) } : { task: Task.toJSON(result) };

/** A send's result from a reply's value. */
export function sendResultOf(value: unknown): Message | Task {
  const v = value as { message?: unknown; task?: unknown };
  return v.message !== undefined ? Message.fromJSON(v.message) : Task.fromJSON(v.task);
}

const ERRORS: Record<string, new (message: string) => A2AError> = {
  TaskNotFoundError,
  TaskNotCancelableError,
  UnsupportedOperationError,
  RequestMalformedError,
  ContentTypeNotSupportedError,
  PushNotificationNotSupportedError,
  InvalidAgentResponseError,
};

/** The error the owner threw, as this instance throws it (same kind, same message). */
export function replyError(reply: CommandReply & { ok: false }): Error {
  const Kind = ERRORS[reply.name];
  return Kind !== undefined ? new Kind(reply.message) : new A2AError(reply.message);
}
