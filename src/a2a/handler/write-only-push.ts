import type {
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { withoutCredentials } from "../push/write-only.js";
import { HandlerLayer } from "./handler-layer.js";

/**
 * Push credentials write-only: the config that Create answers with, Get and List never carry the
 * `token` or `authentication.credentials` a client stored (`withoutCredentials`). One layer under
 * every binding (JSON-RPC, HTTP+JSON, gRPC, v0.3), below the guards. The push sender reads the
 * store itself, so the webhook still gets them.
 */
export class WriteOnlyPushHandler extends HandlerLayer {
  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return withoutCredentials(await this.inner.createTaskPushNotificationConfig(params, context));
  }

  override async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return withoutCredentials(await this.inner.getTaskPushNotificationConfig(params, context));
  }

  override async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const listed = await this.inner.listTaskPushNotificationConfigs(params, context);
    return { ...listed, configs: listed.configs.map(withoutCredentials) };
  }
}
