import { createServer } from "node:net";
import type { Config } from "../config/schema.js";
import type { CheckResult } from "./check-result.js";

/** Why a listen failed, by its error code: the `fix:` to print. Pure. */
export function portFix(code: string | undefined, key: string, port: number): string {
  switch (code) {
    case "EADDRINUSE":
      return `stop the program listening on port ${port} (another claude-a2a?), or choose another port with --port or ${key}`;
    case "EACCES":
      return `this user may not listen on port ${port}: choose one above 1023 with --port or ${key}`;
    case "EADDRNOTAVAIL":
      return `the address is not one of this machine's: correct ${key.replace(/port$/, "host")}`;
    default:
      return `choose another address or port (${key})`;
  }
}

/**
 * Binds the port the server would listen on, then lets it go: a port already taken fails here
 * instead of at the real start (EADDRINUSE). Port 0 (any free one) always binds.
 */
export async function checkPort(
  name: string,
  key: string,
  host: string,
  port: number,
): Promise<CheckResult> {
  if (port === 0) return { name, ok: true, detail: `${host}: any free port (${key} 0)` };
  const where = `${host}:${port}`;
  const failure = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const probe = createServer();
    probe.once("error", (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
  if (failure === undefined) return { name, ok: true, detail: `${where} is free` };
  const inUse = failure.code === "EADDRINUSE";
  return {
    name,
    ok: false,
    detail: inUse ? `${where} is already in use` : `cannot listen on ${where}: ${failure.message}`,
    fix: portFix(failure.code, key, port),
  };
}

/** The HTTP port, and the gRPC one when it is on. */
export async function checkPorts(server: Config["server"]): Promise<CheckResult[]> {
  const http = await checkPort("port", "server.port", server.host, server.port);
  if (server.grpc.port === undefined) return [http];
  return [
    http,
    await checkPort("grpc port", "server.grpc.port", server.grpc.host, server.grpc.port),
  ];
}
