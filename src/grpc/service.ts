/**
 * The A2A gRPC service as this server registers it: the SDK's service definition and
 * implementation (`@a2a-js/sdk/server/grpc`) over the same request handler, user and call context
 * as the HTTP bindings, with request decoding that never throws.
 */
import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { A2AService, grpcService } from "@a2a-js/sdk/server/grpc";
import type {
  ServerInterceptingCallInterface,
  ServiceDefinition,
  UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { callContext } from "../http/app.js";
import { grpcUser } from "./auth.js";
import { callSpan, linkUser, metadataOfUser, setCallState } from "./call-state.js";

/**
 * What a request whose bytes are not its message decodes to. grpc-js answers a throwing decoder
 * with INTERNAL "Error deserializing request", a fault of the server; this lets the request guard
 * answer the client's mistake as one (INVALID_ARGUMENT), and log it.
 */
export class MalformedRequest {
  constructor(readonly reason: string) {}
}

/** The status a call ends with, as interceptors send it (grpc-js does not export the type). */
export type CallStatus = Parameters<ServerInterceptingCallInterface["sendStatus"]>[0];

/** `SendMessage` of `/lf.a2a.v1.A2AService/SendMessage`: the A2A method, as logs name it. */
export const rpcName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

type Codec = { toJSON(message: never): unknown };

/** Each method's request message, for its ProtoJSON form (the shape the HTTP guards check). */
export const REQUEST_CODECS: Readonly<Record<string, Codec>> = {
  SendMessage: SendMessageRequest,
  SendStreamingMessage: SendMessageRequest,
  GetTask: GetTaskRequest,
  ListTasks: ListTasksRequest,
  CancelTask: CancelTaskRequest,
  SubscribeToTask: SubscribeToTaskRequest,
  CreateTaskPushNotificationConfig: TaskPushNotificationConfig,
  GetTaskPushNotificationConfig: GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigs: ListTaskPushNotificationConfigsRequest,
  DeleteTaskPushNotificationConfig: DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCard: GetExtendedAgentCardRequest,
};

/** The SDK's service definition, each method's request decoder made total. */
export function a2aServiceDefinition(): ServiceDefinition {
  const definition: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(A2AService)) {
    const decode = method.requestDeserialize as (bytes: Buffer) => unknown;
    definition[key] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          return decode(bytes);
        } catch (err) {
          // A stack overflow on absurd nesting is a RangeError like any other decoding error.
          return new MalformedRequest((err as Error).message);
        }
      },
    };
  }
  return definition as ServiceDefinition;
}

/**
 * The SDK's implementation over our request handler, caller and call context (the HTTP bindings'
 * `callContext`, with the call's span; its state kept for the answers interceptor).
 */
export function a2aServiceImplementation(
  requestHandler: A2ARequestHandler,
): UntypedServiceImplementation {
  return grpcService({
    requestHandler,
    userBuilder: async (call) => {
      const user = await grpcUser(call);
      linkUser(user, call.metadata);
      return user;
    },
    contextBuilder: (o) => {
      const metadata = metadataOfUser(o.user);
      const context = callContext(o, callSpan(metadata));
      if (metadata !== undefined) setCallState(metadata, context.state);
      return context;
    },
  });
}
