import type {
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { withoutCredentials } from "../push/write-only.js";
import { StateWordsHandler } from "./state-words.js";

/**
 * The SDK's request handler with push credentials write-only: the config that Create answers
 * with, Get and List never carry the `token` or `authentication.credentials` a client stored
 * (`withoutCredentials`). One place under every binding (JSON-RPC, HTTP+JSON, gRPC, v0.3), below
 * the guards. The push sender reads the store itself, so the webhook still gets them.
 */
export class WriteOnlyPushHandler extends StateWordsHandler {
  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return withoutCredentials(await super.createTaskPushNotificationConfig(params, context));
  }

  override async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return withoutCredentials(await super.getTaskPushNotificationConfig(params, context));
  }

  override async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const listed = await super.listTaskPushNotificationConfigs(params, context);
    return { ...listed, configs: listed.configs.map(withoutCredentials) };
  }
}
