import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkPort, portFix } from "../../../src/doctor/port-check.js";

let taken: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve()));
  taken = undefined;
});

async function bindSomePort(): Promise<number> {
  taken = createServer();
  await new Promise<void>((resolve) => taken?.listen(0, "127.0.0.1", resolve));
  const address = taken.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("checkPort: --check binds the port the server would listen on", () => {
  it("reports a port another program holds, naming it and how to choose another", async () => {
    const port = await bindSomePort();
    expect(await checkPort("port", "server.port", "127.0.0.1", port)).toEqual({
      name: "port",
      ok: false,
      detail: `127.0.0.1:${port} is already in use`,
      fix: `stop the program listening on port ${port} (another claude-a2a?), or choose another port with --port or server.port`,
    });
  });

  it("says a free port is free, and leaves it free", async () => {
    const port = await bindSomePort();
    await new Promise<void>((resolve) => taken?.close(() => resolve()));
    taken = undefined;
    expect(await checkPort("port", "server.port", "127.0.0.1", port)).toEqual({
      name: "port",
      ok: true,
      detail: `127.0.0.1:${port} is free`,
    });
    // Let go again: the real start can take it.
    taken = createServer();
    await new Promise<void>((resolve, reject) => {
      taken?.once("error", reject);
      taken?.listen(port, "127.0.0.1", resolve);
    });
  });

  it.each([
    [
      "EADDRINUSE",
      "stop the program listening on port 80 (another claude-a2a?), or choose another port with --port or server.port",
    ],
    [
      "EACCES",
      "this user may not listen on port 80: choose one above 1023 with --port or server.port",
    ],
    ["EADDRNOTAVAIL", "the address is not one of this machine's: correct server.host"],
    [undefined, "choose another address or port (server.port)"],
  ])("portFix(%s)", (code, fix) => {
    expect(portFix(code, "server.port", 80)).toBe(fix);
  });
});
