import { describe, expect, it } from "vitest";
import { PERMISSION_MODES } from "../../../src/claude/index.js";
import { configSchema, parseByteSize } from "../../../src/config/schema.js";

describe("config schema", () => {
  it("gives every documented default for an empty file", () => {
    const c = configSchema.parse({});
    expect(c.server).toEqual({
      host: "127.0.0.1",
      port: 3008,
      trustedProxies: ["127.0.0.1", "::1"],
      auth: { tokens: [] },
      operators: [],
      allowUnauthenticatedRemote: false,
      bodyLimit: 10 * 1024 * 1024,
      pushAllowPrivateNetworks: false,
      compat: { v03: false },
      control: { steer: true, plan: true, rewind: true, fork: true },
      sandbox: { required: false },
      grpc: { host: "127.0.0.1" },
    });
    expect(c.agentCard.name).toBe("Claude Code");
    expect(c.agentCard.capabilities).toEqual({ streaming: true, pushNotifications: true });
    expect(c.agentCard.skills.length).toBeGreaterThan(0);
    expect(c.claude).toEqual({
      permissionMode: "acceptEdits",
      allowedPermissionModes: [],
      settingSources: ["user", "project", "local"],
      permissionPrompts: "input-required",
      maxPermissionDenials: 3,
      inputTimeoutMs: 30 * 60_000,
      backgroundTasks: "wait",
      backgroundWaitTimeoutMs: 30 * 60_000,
      allowedModels: [],
      allowedEfforts: [],
      isolation: "shared",
      worktreeDir: ".claude/worktrees",
    });
    expect(c.sessions).toEqual({
      idleTimeoutMs: 30 * 60_000,
      maxLive: 8,
      minIdleBeforeEvictMs: 1_000,
      maxBackgroundMs: 4 * 60 * 60_000,
      spares: 1,
      spareIdleMs: 30 * 60_000,
    });
    expect(c.artifacts).toEqual({ maxFileBytes: 1024 * 1024, maxToolOutputBytes: 16 * 1024 });
  });

  it("checks server.grpc: a port, an address to advertise, both TLS files", () => {
    const grpc = (g: unknown) => configSchema.safeParse({ server: { grpc: g } });
    expect(grpc({ port: 50051, publicAddress: "[::1]:50051" }).success).toBe(true);
    expect(grpc({ port: 50051, tls: { keyFile: "k.pem", certFile: "c.pem" } }).success).toBe(true);
    expect(grpc({ port: 0 }).success).toBe(false);
    expect(grpc({ port: 50051, publicAddress: "grpc://127.0.0.1:50051" }).success).toBe(true);
    expect(grpc({ port: 50051, publicAddress: "https://agent.example.com" }).success).toBe(false);
    expect(grpc({ port: 50051, publicAddress: "ftp://agent.example.com:21" }).success).toBe(false);
    expect(grpc({ port: 50051, publicAddress: "agent.example.com" }).success).toBe(false);
    expect(grpc({ port: 50051, tls: { keyFile: "k.pem" } }).success).toBe(false);
    expect(grpc({ port: 50051, enabled: true }).success).toBe(false);
  });

  it("fills the defaults of a partly written block", () => {
    const c = configSchema.parse({ server: { port: 4000 }, agentCard: { capabilities: {} } });
    expect(c.server.host).toBe("127.0.0.1");
    expect(c.server.port).toBe(4000);
    expect(c.agentCard.capabilities.streaming).toBe(true);
  });

  it("accepts the docs' examples", () => {
    const readme = {
      server: {
        host: "127.0.0.1",
        port: 3008,
        publicUrl: "https://my-machine.tailnet-name.ts.net",
        allowedLogins: ["you@example.com"],
      },
      agentCard: {
        name: "My Claude Agent",
        description: "A Claude Code agent exposed over A2A.",
        version: "1.0.0",
        capabilities: { streaming: true, pushNotifications: false },
        defaultInputModes: ["text/plain", "application/json"],
        defaultOutputModes: ["text/plain", "application/json"],
        skills: [],
      },
      claude: {
        cwd: "/path/to/the/agent/workspace",
        permissionMode: "acceptEdits",
        model: "claude-sonnet-4-5",
        allowedTools: ["Read", "Write", "Edit"],
        settingSources: ["user", "project", "local"],
        maxTurns: 20,
        maxPermissionDenials: 3,
      },
    };
    const c = configSchema.parse(readme);
    expect(c.agentCard.skills).toEqual([]);
    expect(c.claude.maxTurns).toBe(20);
    expect(c.server.allowedLogins).toEqual(["you@example.com"]);
  });

  it("allows a $schema key for editors and rejects any other unknown key", () => {
    expect(configSchema.safeParse({ $schema: "./config.schema.json" }).success).toBe(true);
    expect(configSchema.safeParse({ sever: {} }).success).toBe(false);
    expect(configSchema.safeParse({ server: { prot: 1 } }).success).toBe(false);
    expect(
      configSchema.safeParse({
        agentCard: { skills: [{ id: "a", name: "b", description: "c", tag: [] }] },
      }).success,
    ).toBe(false);
  });

  it("knows every permission mode of the Agent SDK", () => {
    for (const mode of PERMISSION_MODES) {
      expect(configSchema.parse({ claude: { permissionMode: mode } }).claude.permissionMode).toBe(
        mode,
      );
    }
    expect(configSchema.safeParse({ claude: { permissionMode: "yolo" } }).success).toBe(false);
  });

  it("rejects out-of-range numbers", () => {
    for (const port of [0, 65536, 1.5, "3008"]) {
      expect(configSchema.safeParse({ server: { port } }).success).toBe(false);
    }
    expect(configSchema.safeParse({ claude: { maxPermissionDenials: 0 } }).success).toBe(false);
    expect(configSchema.safeParse({ sessions: { maxLive: -1 } }).success).toBe(false);
    for (const maxBudgetUsd of [0, -1, "5"]) {
      const r = configSchema.safeParse({ claude: { maxBudgetUsd } });
      expect(r.error?.issues[0]?.message).toBe("expected a number of US dollars greater than 0");
    }
    expect(configSchema.parse({ claude: { maxBudgetUsd: 0.5 } }).claude.maxBudgetUsd).toBe(0.5);
  });

  it("takes bearer tokens by digest or environment variable, never in plain", () => {
    const digest = "A".repeat(64);
    const tokens = [
      { name: "ci", sha256: digest },
      { name: "laptop", env: "A2A_LAPTOP_TOKEN" },
    ];
    expect(configSchema.parse({ server: { auth: { tokens } } }).server.auth.tokens).toEqual([
      { name: "ci", sha256: "a".repeat(64) },
      { name: "laptop", env: "A2A_LAPTOP_TOKEN" },
    ]);
    for (const bad of [
      [{ name: "ci", token: "s3cret" }],
      [{ name: "ci" }],
      [{ name: "ci", sha256: digest, env: "X" }],
      [{ name: "ci", sha256: "abc" }],
      [{ name: "ci", env: "NOT A NAME" }],
      [{ sha256: digest }],
      [
        { name: "ci", sha256: digest },
        { name: "ci", env: "X" },
      ],
    ]) {
      expect(configSchema.safeParse({ server: { auth: { tokens: bad } } }).success).toBe(false);
    }
  });

  it("takes trusted proxies as IP addresses only", () => {
    const parse = (trustedProxies: unknown) =>
      configSchema.safeParse({ server: { trustedProxies } });
    expect(parse(["10.0.0.5", "fd00::1"]).success).toBe(true);
    for (const bad of [["localhost"], ["10.0.0.0/8"], "127.0.0.1", [""]]) {
      expect(parse(bad).success).toBe(false);
    }
  });

  it("takes the body limit as bytes or a size string", () => {
    expect(configSchema.parse({ server: { bodyLimit: 2048 } }).server.bodyLimit).toBe(2048);
    expect(configSchema.parse({ server: { bodyLimit: "512kb" } }).server.bodyLimit).toBe(524288);
    expect(configSchema.parse({ server: { bodyLimit: "1.5MB" } }).server.bodyLimit).toBe(1572864);
    for (const bad of ["10xb", "mb", 0, -5, true]) {
      expect(configSchema.safeParse({ server: { bodyLimit: bad } }).success).toBe(false);
    }
  });
});

describe("parseByteSize", () => {
  it("parses units case-insensitively with 1 kb = 1024 bytes", () => {
    expect(parseByteSize("10mb")).toBe(10 * 1024 * 1024);
    expect(parseByteSize("1 GB")).toBe(1024 ** 3);
    expect(parseByteSize("100b")).toBe(100);
    expect(parseByteSize(42)).toBe(42);
    expect(() => parseByteSize("ten mb")).toThrow(RangeError);
  });
});

describe("config schema: per-task model and passed-through Claude options", () => {
  const claude = (input: Record<string, unknown>) => configSchema.safeParse({ claude: input });
  const messages = (input: Record<string, unknown>) =>
    claude(input).error?.issues.map((i) => i.message) ?? [];

  it("takes the docs' shapes", () => {
    const parsed = claude({
      allowedModels: ["claude-opus-4-5"],
      allowedEfforts: ["low", "max"],
      effort: "high",
      fallbackModel: "claude-haiku-4-5",
      systemPrompt: { append: "Be brief." },
      mcpServers: {
        local: { command: "node", args: ["server.js"], env: { LEVEL: "1" } },
        remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { A: "b" } },
        events: { type: "sse", url: "http://127.0.0.1:9000/sse" },
      },
      agents: {
        reviewer: {
          description: "Reviews",
          prompt: "You review.",
          tools: ["Read"],
          model: "haiku",
        },
      },
      additionalDirectories: ["../lib"],
      env: { MODE: "ci", N: 2, ON: true },
    });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.claude.env).toEqual({ MODE: "ci", N: "2", ON: "true" });
  });

  it("refuses an unknown effort, MCP server shape or subagent key, saying what is expected", () => {
    expect(messages({ allowedEfforts: ["turbo"] })).toEqual([
      "expected one of low, medium, high, xhigh, max",
    ]);
    expect(messages({ mcpServers: { x: { url: "https://a.example" } } })).toEqual([
      'expected an MCP server: { "command", "args"?, "env"? } (stdio) or { "type": "http" | "sse", "url", "headers"? }',
    ]);
    expect(
      claude({ agents: { a: { description: "d", prompt: "p", colour: "red" } } }).success,
    ).toBe(false);
    expect(claude({ systemPrompt: "text" }).success).toBe(false);
  });

  it("never quotes an env value back: only an object, array or null fails, and says so", () => {
    const r = claude({ env: { TOKEN: { nested: "s3cr3t" } } });
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["claude.env.TOKEN", "expected a string"],
    ]);
  });
});
