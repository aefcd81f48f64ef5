/** gRPC test pieces: the official SDK client over the gRPC binding, a raw client, a log capture. */
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import {
  Client as GrpcClient,
  credentials,
  Metadata,
  type ChannelCredentials,
  type ServiceError,
} from "@grpc/grpc-js";
import { pino, type Logger } from "pino";
import { bearerMetadata } from "../../src/client/connect.js";

export const GET_TASK = "/lf.a2a.v1.A2AService/GetTask";
export const SEND_MESSAGE = "/lf.a2a.v1.A2AService/SendMessage";

export const getTaskBytes = (id: string): Buffer =>
  A2AService.getTask.requestSerialize({ tenant: "", id, historyLength: undefined });

/**
 * The SDK's own client with only its gRPC transport: it reads the card at `url` and dials the
 * card's GRPC interface. `token` goes as `authorization: Bearer <token>` metadata.
 */
export function sdkGrpcClient(
  url: string,
  o: { token?: string; credentials?: ChannelCredentials } = {},
): Promise<Client> {
  return new ClientFactory({
    transports: [
      new GrpcTransportFactory(o.credentials && { grpcChannelCredentials: o.credentials }),
    ],
    ...(o.token !== undefined && { clientConfig: { interceptors: [bearerMetadata(o.token)] } }),
  }).createFromUrl(url);
}

export interface RawAnswer {
  readonly error: ServiceError | null;
  readonly value: Buffer | undefined;
}

/** A raw gRPC client: any bytes to any method, with `a2a-version: 1.0` and any other metadata. */
export function rawGrpcClient(address: string, channel = credentials.createInsecure()) {
  const client = new GrpcClient(address, channel);
  return {
    unary(path: string, bytes: Buffer, metadata: Record<string, string> = {}): Promise<RawAnswer> {
      const md = new Metadata();
      md.set("a2a-version", "1.0");
      for (const [k, v] of Object.entries(metadata)) md.set(k, v);
      return new Promise((resolve) => {
        client.makeUnaryRequest(
          path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          md,
          (error, value) => resolve({ error, value }),
        );
      });
    },
    close: () => client.close(),
  };
}

export interface LogCapture {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
  /** Resolves with the lines matching `pred` once there are `n` of them. */
  readonly waitFor: (
    pred: (line: Record<string, unknown>) => boolean,
    n?: number,
  ) => Promise<Record<string, unknown>[]>;
}

/** A pino logger (level info) whose JSON lines a test reads. */
export function captureLogs(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const logger = pino(
    { level: "info" },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
        for (const w of waiters.splice(0)) w();
      },
    },
  );
  return {
    logger,
    lines,
    waitFor: async (pred, n = 1) => {
      for (;;) {
        const found = lines.filter(pred);
        if (found.length >= n) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/** A gRPC request line of the log (component grpc, msg request). */
export const grpcRequestLine = (line: Record<string, unknown>): boolean =>
  line.component === "grpc" && line.msg === "request";
