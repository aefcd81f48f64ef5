import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";

/**
 * One layer of the request handler stack (`src/app/request-stack.ts`): a decorator over the
 * handler below it, `inner`. Every method passes the request down unchanged; a layer overrides
 * only the methods it has something to do in, and reaches the rest of the stack through `inner`
 * alone. Layers extend this class and nothing else: no layer subclasses another, so none knows
 * another's constructor, and the order of the stack is the list that builds it.
 */
export abstract class HandlerLayer implements A2ARequestHandler {
  constructor(protected readonly inner: A2ARequestHandler) {}

  getAgentCard(): Promise<AgentCard> {
    return this.inner.getAgentCard();
  }
  getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    return this.inner.getAuthenticatedExtendedAgentCard(params, context);
  }
  sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return this.inner.sendMessage(params, context);
  }
  sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.inner.sendMessageStream(params, context);
  }
  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.inner.getTask(params, context);
  }
  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.inner.cancelTask(params, context);
  }
  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.listTasks(params, context);
  }
  resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.inner.resubscribe(params, context);
  }
  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.inner.createTaskPushNotificationConfig(params, context);
  }
  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.inner.getTaskPushNotificationConfig(params, context);
  }
  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.inner.listTaskPushNotificationConfigs(params, context);
  }
  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.inner.deleteTaskPushNotificationConfig(params, context);
  }
}
