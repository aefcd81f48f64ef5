import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { colorEnabled } from "../../../src/client/colors.js";
import { errorMessage, grpcTarget } from "../../../src/client/connect.js";
import { contextMemory } from "../../../src/client/context-memory.js";
import { configDir, DEFAULT_URL, resolveUrl } from "../../../src/client/defaults.js";
import { mediaTypeOf } from "../../../src/client/parts.js";
import { summary, table } from "../../../src/client/table.js";

describe("the agent URL", () => {
  it("--url, then A2A_URL, then the default; a trailing slash dropped", () => {
    expect(resolveUrl("http://a:1/", { A2A_URL: "http://b:2" })).toBe("http://a:1");
    expect(resolveUrl(undefined, { A2A_URL: "http://b:2" })).toBe("http://b:2");
    expect(resolveUrl(undefined, { A2A_URL: "  " })).toBe(DEFAULT_URL);
    expect(resolveUrl(undefined, {})).toBe("http://localhost:3008");
  });
});

describe("the config directory (XDG)", () => {
  it("is $XDG_CONFIG_HOME/claude-a2a when absolute, else ~/.config/claude-a2a", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/x/cfg" }, "/home/u")).toBe("/x/cfg/claude-a2a");
    expect(configDir({ XDG_CONFIG_HOME: "relative" }, "/home/u")).toBe(
      "/home/u/.config/claude-a2a",
    );
    expect(configDir({}, "/home/u")).toBe("/home/u/.config/claude-a2a");
  });

  it("remembers one context per URL, survives a corrupt file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "claude-a2a-mem-"));
    try {
      const mem = contextMemory(join(dir, "claude-a2a"));
      expect(await mem.get("http://a")).toBeUndefined();
      await mem.set("http://a", "c1");
      await mem.set("http://b", "c2");
      await mem.set("http://a", "c3");
      expect(await mem.get("http://a")).toBe("c3");
      expect(await mem.get("http://b")).toBe("c2");
      expect(JSON.parse(await readFile(mem.file, "utf8"))).toEqual({
        contexts: { "http://a": "c3", "http://b": "c2" },
      });
      await writeFile(mem.file, "{oops");
      expect(await mem.get("http://a")).toBeUndefined();
      await mem.set("http://a", "c4");
      expect(await mem.get("http://a")).toBe("c4");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("colours", () => {
  it("only on a TTY, never with NO_COLOR", () => {
    expect(colorEnabled(true, {})).toBe(true);
    expect(colorEnabled(false, {})).toBe(false);
    expect(colorEnabled(undefined, {})).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: "" })).toBe(true); // no-color.org: set and not empty
  });
});

describe("small pieces", () => {
  it("media types by extension", () => {
    expect(mediaTypeOf("a/B.MD")).toBe("text/markdown");
    expect(mediaTypeOf("x.png")).toBe("image/png");
    expect(mediaTypeOf("x.bin")).toBe("application/octet-stream");
  });

  it("a table aligns columns and trims line ends", () => {
    expect(
      table(
        ["ID", "STATE", "TEXT"],
        [
          ["1", "completed", "hi"],
          ["22", "failed", ""],
        ],
      ),
    ).toBe("ID  STATE      TEXT\n1   completed  hi\n22  failed\n");
    expect(summary("line one\nline two", 20)).toBe("line one");
    expect(summary("abcdefghij", 5)).toBe("abcd…");
  });

  it.each([
    ["127.0.0.1:50051", { target: "127.0.0.1:50051" }],
    ["[::1]:50051", { target: "[::1]:50051" }],
    ["grpc://127.0.0.1:50051", { target: "127.0.0.1:50051", tls: false }],
    ["http://agent:80/", { target: "agent:80", tls: false }],
    ["GRPCS://agent.example.com:443", { target: "agent.example.com:443", tls: true }],
    ["https://agent.example.com:443", { target: "agent.example.com:443", tls: true }],
    // A path cannot be dialed: left as it is, for grpc-js to refuse.
    ["https://agent.example.com/a2a/grpc", { target: "https://agent.example.com/a2a/grpc" }],
  ])("dials the card's gRPC url %s as %o", (url, expected) => {
    expect(grpcTarget(url)).toEqual(expected);
  });

  it("a gRPC refusal reads like its HTTP one", () => {
    const grpc = (status: number, message = "gRPC error for getTask: x") =>
      Object.assign(new Error(message), { transport: "grpc", status });
    expect(errorMessage(grpc(16))).toMatch(/--token or set A2A_TOKEN/);
    expect(errorMessage(grpc(7))).toMatch(/allowedLogins/);
    expect(errorMessage(grpc(14, "14 UNAVAILABLE: No connection established"))).toBe(
      "cannot reach the agent's gRPC binding (14 UNAVAILABLE: No connection established): is the address in its card reachable from here, and does --grpc-tls match the server?",
    );
    expect(errorMessage(grpc(5, "Task not found: t"))).toBe("Task not found: t");
  });

  it("an unreachable agent reads as such", () => {
    const err = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    expect(errorMessage(err, "http://x:1")).toBe(
      "cannot reach the agent at http://x:1 (ECONNREFUSED). Is the server running? Set --url or A2A_URL.",
    );
    expect(errorMessage(new Error("Task not found\nmore"))).toBe("Task not found");
    const http = (status: string) =>
      new Error(`HTTP error for GetTask! Status: ${status}. Response: {"error":"x"}`);
    expect(errorMessage(http("401 Unauthorized"))).toMatch(/--token or set A2A_TOKEN/);
    expect(errorMessage(http("403 Forbidden"))).toMatch(/allowedLogins/);
    expect(
      errorMessage(
        new Error("HTTP error establishing stream for SendStreamingMessage: 401 Unauthorized"),
      ),
    ).toMatch(/bearer token/);
  });

  it("says the server's own 401/403 reason first, on every command (send's stream included)", () => {
    const body = JSON.stringify({
      error: "unauthorized",
      message: "The bearer token has expired.",
    });
    expect(
      errorMessage(
        new Error(
          `HTTP error establishing stream for SendStreamingMessage: 401 Unauthorized. Response: ${body}`,
        ),
      ),
    ).toBe(
      "The bearer token has expired. (the agent requires a bearer token, and none or a wrong one was sent: pass --token or set A2A_TOKEN.)",
    );
    const forbidden = JSON.stringify({ error: "forbidden", message: "Your login is not allowed." });
    expect(
      errorMessage(
        new Error(`HTTP error for GetTask! Status: 403 Forbidden. Response: ${forbidden}`),
      ),
    ).toMatch(/^Your login is not allowed\. \(the agent refused this caller/);
    const grpcErr = Object.assign(new Error("16 UNAUTHENTICATED: The bearer token has expired."), {
      transport: "grpc",
      status: 16,
    });
    expect(errorMessage(grpcErr)).toMatch(/^The bearer token has expired\. \(/);
  });
});
