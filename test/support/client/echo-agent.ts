/**
 * A minimal A2A agent that is NOT claude-a2a: built from the SDK's own server pieces, it knows
 * nothing of our `metadata.kind` contract. The client must work against it too.
 *
 * - `msg <text>`  answers with a message (no task);
 * - `ask <text>`  parks the task in input-required with a plain-text question; the answer completes it;
 * - `fail`        fails the task;
 * - `later <text>` completes, then the agent starts a task by itself in the same context
 *   (`metadata.origin: "autonomous"`, as claude-a2a does for background work) that ends with
 *   `background: <text> done`;
 * - anything else: a task that streams `echo: <text>` as an artifact in two chunks, then completes.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
  UnauthenticatedUser,
} from "@a2a-js/sdk/server";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { A2AService, grpcService } from "@a2a-js/sdk/server/grpc";
import { Server as GrpcServer, ServerCredentials } from "@grpc/grpc-js";
import { Role, TaskState, type AgentCard, type Message, type Part, type Task } from "@a2a-js/sdk";

const text = (value: string): Part => ({
  content: { $case: "text", value },
  mediaType: "",
  filename: "",
  metadata: undefined,
});

const agentMessage = (ctx: RequestContext, value: string): Message => ({
  messageId: crypto.randomUUID(),
  contextId: ctx.contextId,
  taskId: ctx.taskId,
  role: Role.ROLE_AGENT,
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const userText = (ctx: RequestContext): string =>
  ctx.userMessage.parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("");

const WAKE = "\u0000wake ";

class EchoExecutor implements AgentExecutor {
  readonly received: Message[] = [];
  /** Starts a task "by itself" (set once the request handler exists). */
  wake: (contextId: string, text: string) => void = () => undefined;

  execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    this.received.push(ctx.userMessage);
    const said = userText(ctx);
    const status = (state: TaskState, message?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state,
            message: message === undefined ? undefined : agentMessage(ctx, message),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    if (said.startsWith("msg ")) {
      bus.publish(
        AgentEvent.message({ ...agentMessage(ctx, `echo: ${said.slice(4)}`), taskId: "" }),
      );
      bus.finished();
      return Promise.resolve();
    }
    const autonomous = said.startsWith(WAKE);
    const task: Task = ctx.task ?? {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: autonomous ? { origin: "autonomous" } : undefined,
    };
    bus.publish(AgentEvent.task(task));
    if (ctx.task !== undefined) {
      status(TaskState.TASK_STATE_COMPLETED, `hello ${said}`);
    } else if (said.startsWith("ask ")) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, "What is your name?");
    } else if (autonomous) {
      status(TaskState.TASK_STATE_COMPLETED, `background: ${said.slice(WAKE.length)} done`);
    } else if (said.startsWith("later ")) {
      status(TaskState.TASK_STATE_COMPLETED, "started background work");
      const contextId = ctx.contextId;
      setTimeout(() => this.wake(contextId, said.slice(6)), 200);
    } else if (said === "fail") {
      status(TaskState.TASK_STATE_FAILED, "echo agent failed on purpose");
    } else {
      status(TaskState.TASK_STATE_WORKING);
      const chunk = (value: string, append: boolean, lastChunk: boolean) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            artifact: {
              artifactId: "echo",
              name: "echo",
              description: "",
              parts: [text(value)],
              metadata: undefined,
              extensions: [],
            },
            append,
            lastChunk,
            metadata: undefined,
          }),
        );
      chunk("echo: ", false, false);
      chunk(said, true, true);
      status(TaskState.TASK_STATE_COMPLETED);
    }
    bus.finished();
    return Promise.resolve();
  }

  cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
    return Promise.resolve();
  }
}

export interface EchoAgent {
  readonly url: string;
  readonly received: Message[];
  /** Authorization headers seen, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startEchoAgent(
  options: {
    token?: string;
    /**
     * Serve the SDK's gRPC binding too ("also": listed after JSON-RPC, as host:port) or alone
     * ("only": as grpc://host:port).
     */
    grpc?: "also" | "only";
  } = {},
): Promise<EchoAgent> {
  const app = express();
  const authorizations: (string | undefined)[] = [];
  app.use((req, res, next) => {
    authorizations.push(req.headers.authorization);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.status(401).json({ error: "unauthorized" });
      return;
    }
    next();
  });
  const http: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const grpc = options.grpc === undefined ? undefined : new GrpcServer();
  const grpcPort =
    grpc &&
    (await new Promise<number>((resolve, reject) =>
      grpc.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      ),
    ));
  const card: AgentCard = {
    name: "Echo",
    description: "echoes",
    supportedInterfaces: [
      ...(options.grpc === "only"
        ? []
        : [{ url: `${url}/rpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }]),
      ...(grpcPort === undefined
        ? []
        : [
            {
              // Both forms a card may use: bare beside JSON-RPC, a grpc:// URL alone.
              url: `${options.grpc === "only" ? "grpc://" : ""}127.0.0.1:${grpcPort}`,
              protocolBinding: "GRPC",
              tenant: "",
              protocolVersion: "1.0",
            },
          ]),
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
  const executor = new EchoExecutor();
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  executor.wake = (contextId, said) => {
    const message: Message = {
      messageId: crypto.randomUUID(),
      contextId,
      taskId: "",
      role: Role.ROLE_USER,
      parts: [text(`${WAKE}${said}`)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const call = new ServerCallContext({ user: new UnauthenticatedUser() });
    void handler.sendMessage(
      { tenant: "", message, configuration: undefined, metadata: undefined },
      call,
    );
  };
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use(
    "/rpc",
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  grpc?.addService(
    A2AService,
    grpcService({
      requestHandler: handler,
      userBuilder: (call) => {
        authorizations.push(call.metadata.get("authorization")[0]?.toString());
        return Promise.resolve(new UnauthenticatedUser());
      },
    }),
  );
  return {
    url,
    received: executor.received,
    authorizations,
    close: async () => {
      grpc?.forceShutdown();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
