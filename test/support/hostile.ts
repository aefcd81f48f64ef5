/**
 * Seeded generators of hostile A2A requests, for the property-style suite
 * (test/e2e/hostile-input.test.ts): truncated bodies, wrong types, huge and deep values, bad
 * base64, traversal filenames, odd ids, bad headers. Every request says what a correct server may
 * answer it with. Deterministic for a seed.
 */
import { gzipSync } from "node:zlib";

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    chance: (p) => next() < p,
  };
}

export interface HostileRequest {
  /** What was done to it, for a failing test's message. */
  readonly label: string;
  readonly method: string;
  /** Path and query, e.g. `/a2a/jsonrpc`. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  /**
   * `error`: must be refused with the binding's JSON error. `error-or-result`: a JSON error or a
   * correct result (a lookup by an odd id, a list). `no-body`: a JSON-RPC notification, HTTP 204.
   */
  readonly expect: "error" | "error-or-result" | "no-body";
}

/** Credentials sent in headers and push configs: the server's log must never hold them. */
export const SECRETS = {
  bearer: "hostile-bearer-secret-7d1c",
  notificationToken: "hostile-push-header-secret-91aa",
} as const;

export const ODD_IDS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "../../etc/passwd",
  "..",
  "%00",
  "\u0000",
  "line\nbreak",
  'x\n{"level":60,"msg":"forged"}',
  "ünïcödé-✓",
  "‮reversed",
  " ",
  "a".repeat(5000),
  "SELECT * FROM tasks; --",
  "${jndi:ldap://127.0.0.1/x}",
] as const;

export const TRAVERSAL_FILENAMES = [
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "../../../../../../tmp/escaped.txt",
  "....//....//x",
  ".",
  "..",
  "",
  "a/../../b.txt",
  ".claude/../../up.txt",
  "\u0000.txt",
  "CON",
] as const;

const V1 = { "A2A-Version": "1.0" };
const JSON_V1 = { ...V1, "content-type": "application/json" };

type Json = Record<string, unknown>;

/** `depth` arrays deep, built as text (JSON.stringify itself would overflow). */
const deepJson = (depth: number): string => `${"[".repeat(depth)}0${"]".repeat(depth)}`;
const DEEP = "__DEEP__";

const validMessage = (rng: Rng): Json => ({
  messageId: `hostile-${rng.int(1e9)}`,
  role: "ROLE_USER",
  parts: [{ text: "hostile" }],
});

/** One defect that makes a message unacceptable; each returns what it did. */
const FATAL: readonly ((m: Json, rng: Rng) => string)[] = [
  (m, rng) => {
    m.role = rng.pick(["ROLE_AGENT", 2, "agent", "", null, 99, "ROLE_USER ", "U".repeat(100_000)]);
    return `role ${JSON.stringify(m.role).slice(0, 20)}`;
  },
  (m, rng) => {
    m.parts = rng.pick<unknown>([
      [],
      "text",
      5,
      null,
      {},
      [null],
      [{}],
      [{ text: 5 }],
      [{ text: ["a"] }],
      [{ text: "a", raw: "AAAA" }],
      [{ url: {} }],
      [{ data: null }],
      [{ text: "a", metadata: "m" }],
      [{ text: "a", filename: 7 }],
    ]);
    return `parts ${JSON.stringify(m.parts)}`;
  },
  (m, rng) => {
    const raw = rng.pick(["%%%", "A", "AAAAA", "YWJj\n", "****", "aGVsbG8=x", "=AAA"]);
    m.parts = [{ raw, mediaType: "text/plain", filename: rng.pick(TRAVERSAL_FILENAMES) }];
    return `bad base64 ${JSON.stringify(raw)}`;
  },
  (m, rng) => {
    const id = rng.pick<unknown>([undefined, "", 5, {}, [], null]);
    if (id === undefined) delete m.messageId;
    else m.messageId = id;
    return `messageId ${JSON.stringify(id)}`;
  },
  (m, rng) => {
    m.contextId = rng.pick<unknown>([5, {}, [], true, ["__proto__"]]);
    return `contextId ${JSON.stringify(m.contextId)}`;
  },
  (m, rng) => {
    m.taskId = rng.pick<unknown>([5, {}, false]);
    return `taskId ${JSON.stringify(m.taskId)}`;
  },
  (m, rng) => {
    // A well-formed id of a task that does not exist: TaskNotFound.
    m.taskId = rng.pick(ODD_IDS);
    return `unknown taskId ${JSON.stringify(m.taskId).slice(0, 30)}`;
  },
  (m, rng) => {
    m.metadata = rng.pick<unknown>(["meta", 5, [], true]);
    return `metadata ${JSON.stringify(m.metadata)}`;
  },
  (m) => {
    m.metadata = { deep: DEEP };
    return "deep metadata";
  },
  (m, rng) => {
    m.referenceTaskIds = rng.pick<unknown>(["x", [1], [{}], [null]]);
    return `referenceTaskIds ${JSON.stringify(m.referenceTaskIds)}`;
  },
];

/** Changes that leave a bad message bad: extra size, odd but well-formed ids, unknown fields. */
function noise(m: Json, rng: Rng): string[] {
  const done: string[] = [];
  if (rng.chance(0.2)) {
    m.metadata = { huge: "h".repeat(50_000 + rng.int(300_000)) };
    done.push("huge metadata");
  }
  if (rng.chance(0.3)) {
    m.contextId = rng.pick(ODD_IDS);
    done.push("odd contextId");
  }
  if (rng.chance(0.2)) {
    m.referenceTaskIds = [rng.pick(ODD_IDS)];
    done.push("odd referenceTaskIds");
  }
  if (rng.chance(0.1)) {
    // An own "__proto__" key, as JSON.parse makes one (an assignment would set the prototype).
    Object.defineProperty(m, "__proto__", {
      value: { role: "ROLE_USER" },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    done.push("__proto__ field");
  }
  return done;
}

function badMessage(rng: Rng): { message: Json; label: string } {
  const message = validMessage(rng);
  const extra = noise(message, rng);
  const fatal = rng.pick(FATAL)(message, rng);
  return { message, label: [fatal, ...extra].join(", ") };
}

/** JSON text of `value`, with the deep placeholder expanded. */
function encode(value: unknown, rng: Rng): string {
  const text = JSON.stringify(value);
  return text.includes(`"${DEEP}"`)
    ? text.replace(`"${DEEP}"`, deepJson(65 + rng.int(20_000)))
    : text;
}

const rpcBody = (method: string, params: unknown, id: unknown = 1): Json => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

const ODD_JSON_RPC_IDS: readonly unknown[] = [0, "", "__proto__", -1, 2 ** 53, "x".repeat(300)];

/** A JSON-RPC request that must be refused, or that may only answer from what exists. */
function jsonRpcRequest(rng: Rng): HostileRequest {
  const id = rng.chance(0.3) ? rng.pick(ODD_JSON_RPC_IDS) : 1 + rng.int(1000);
  const kind = rng.int(7);
  const post = (label: string, body: string, expect: HostileRequest["expect"] = "error") => ({
    label: `jsonrpc ${label}`,
    method: "POST",
    path: "/a2a/jsonrpc",
    headers: { ...JSON_V1 },
    body,
    expect,
  });
  switch (kind) {
    case 0:
    case 1: {
      const { message, label } = badMessage(rng);
      const method = rng.pick(["SendMessage", "SendStreamingMessage"]);
      return post(`${method} ${label}`, encode(rpcBody(method, { message }, id), rng));
    }
    case 2: {
      const { message } = badMessage(rng);
      const text = JSON.stringify(rpcBody("SendMessage", { message }, id));
      const cut = 1 + rng.int(Math.max(1, text.length - 2));
      return post(`truncated at ${cut}`, text.slice(0, cut));
    }
    case 3: {
      const junk = rng.pick([
        "",
        "null",
        "42",
        '"a string"',
        "[]",
        '[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]',
        "{",
        "}{",
        "true",
        '{"jsonrpc":"2.0"}',
        '{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"x"}}',
        '{"jsonrpc":"2.0","id":{"a":1},"method":"GetTask","params":{"id":"x"}}',
        '{"jsonrpc":"2.0","id":1.5,"method":"GetTask","params":{"id":"x"}}',
        '{"jsonrpc":"2.0","id":1,"method":5}',
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":"x"}',
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}',
        '{"jsonrpc":"2.0","id":1,"method":"__proto__","params":{}}',
        '{"jsonrpc":"2.0","id":1,"method":"constructor","params":{}}',
        '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"__proto__":{"role":"ROLE_USER"}}}}',
        '{"__proto__":{"jsonrpc":"2.0"},"id":1,"method":"GetTask"}',
        "\u0000\u0001\u0002",
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"\\ud800"}}',
      ]);
      return post(`junk ${JSON.stringify(junk).slice(0, 40)}`, junk);
    }
    case 4: {
      const odd = rng.pick(ODD_IDS);
      const method = rng.pick([
        "GetTask",
        "CancelTask",
        "SubscribeToTask",
        "GetTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigs",
        "DeleteTaskPushNotificationConfig",
        "CreateTaskPushNotificationConfig",
      ]);
      const params =
        method === "CreateTaskPushNotificationConfig"
          ? { taskId: odd, config: { id: odd, url: "http://127.0.0.1:9/hook", token: "t" } }
          : method.includes("PushNotificationConfig")
            ? { taskId: odd, id: odd }
            : { id: odd, historyLength: rng.pick([undefined, -1, 0, 1e9]) };
      return post(`${method} odd id`, encode(rpcBody(method, params, id), rng));
    }
    case 5: {
      const params = {
        contextId: rng.pick(ODD_IDS),
        pageSize: rng.pick<unknown>([undefined, 0, -5, 1000, "x", 1.5]),
        pageToken: rng.pick<unknown>([undefined, "__proto__", "garbage", 5]),
        historyLength: rng.pick<unknown>([undefined, -1, "all"]),
        status: rng.pick<unknown>([undefined, "TASK_STATE_NOPE", 99]),
      };
      return post(
        "ListTasks odd filters",
        encode(rpcBody("ListTasks", params, id), rng),
        "error-or-result",
      );
    }
    default: {
      // A notification: no id. Whatever it asks, nothing comes back (a refused message included).
      const useMessage = rng.chance(0.5);
      const body = useMessage
        ? { jsonrpc: "2.0", method: "SendMessage", params: { message: badMessage(rng).message } }
        : {
            jsonrpc: "2.0",
            method: rng.pick(["GetTask", "NoSuchMethod"]),
            params: { id: rng.pick(ODD_IDS) },
          };
      return post(`notification ${body.method}`, encode(body, rng), "no-body");
    }
  }
}

/** A REST (HTTP+JSON) request that must be refused, or may only answer from what exists. */
function restRequest(rng: Rng): HostileRequest {
  const odd = encodeURIComponent(rng.pick(ODD_IDS));
  const kind = rng.int(5);
  const base = { headers: { ...JSON_V1 } };
  switch (kind) {
    case 0:
    case 1: {
      const { message, label } = badMessage(rng);
      const path = rng.pick(["/a2a/rest/message:send", "/a2a/rest/message:stream"]);
      const text = encode({ message }, rng);
      const truncated = rng.chance(0.2);
      return {
        ...base,
        label: `rest ${path} ${truncated ? "truncated" : label}`,
        method: "POST",
        path,
        body: truncated ? text.slice(0, 1 + rng.int(text.length - 1)) : text,
        expect: "error",
      };
    }
    case 2: {
      const [method, path] = rng.pick([
        ["GET", `/a2a/rest/tasks/${odd}`],
        ["POST", `/a2a/rest/tasks/${odd}:cancel`],
        ["GET", `/a2a/rest/tasks/${odd}/pushNotificationConfigs`],
        ["GET", `/a2a/rest/tasks/${odd}/pushNotificationConfigs/${odd}`],
        ["PUT", "/a2a/rest/message:send"],
        ["GET", "/a2a/jsonrpc"],
        ["DELETE", `/a2a/rest/tasks/${odd}`],
        ["GET", `/a2a/rest/tasks/${odd}:subscribe`],
        ["GET", "/a2a/rest/tasks/%ZZ"],
        ["POST", "/a2a/rest/tasks/%E0%A4%A:cancel"],
        ["GET", `/a2a/rest/tasks/${"a".repeat(20_000)}`],
      ] as const);
      return {
        ...base,
        label: `rest ${method} ${path.slice(0, 60)}`,
        method,
        path,
        expect: "error",
      };
    }
    case 3: {
      const query = rng.pick([
        `contextId=${odd}`,
        "pageSize=abc",
        "pageSize=100000",
        "pageToken=__proto__",
        "status=NOPE",
        "historyLength=-1",
        `contextId=${odd}&includeArtifacts=maybe`,
      ]);
      return {
        ...base,
        label: `rest list ${query.slice(0, 40)}`,
        method: "GET",
        path: `/a2a/rest/tasks?${query}`,
        expect: "error-or-result",
      };
    }
    default: {
      const body = encode(
        {
          taskId: rng.pick(ODD_IDS),
          config: { id: rng.pick(ODD_IDS), url: "http://127.0.0.1:9/h" },
        },
        rng,
      );
      return {
        ...base,
        label: "rest create push config for an odd task",
        method: "POST",
        path: `/a2a/rest/tasks/${odd}/pushNotificationConfigs`,
        body,
        expect: "error",
      };
    }
  }
}

/**
 * Header damage. Some make any request fail (wrong content type, charset, encoding, version);
 * others must change nothing (credentials the server does not use, an identity header, noise).
 */
function damageHeaders(r: HostileRequest, rng: Rng): HostileRequest {
  const hasBody = r.method === "POST" && r.body !== undefined;
  // Damage to the body's headers only where there is a body.
  const roll = hasBody ? rng.int(10) : 4 + rng.int(6);
  const headers = { ...r.headers };
  let body = r.body;
  let failing = true;
  let label: string;
  switch (roll) {
    case 0:
      headers["content-type"] = rng.pick(["text/plain", "application/xml", "multipart/form-data"]);
      label = `content-type ${headers["content-type"]}`;
      break;
    case 1:
      headers["content-type"] = "application/json; charset=klingon";
      label = "bad charset";
      break;
    case 2:
      headers["content-encoding"] = rng.pick(["gzip", "deflate", "br", "compress", "x-nope"]);
      label = `content-encoding ${headers["content-encoding"]} of a plain body`;
      break;
    case 3:
      headers["content-encoding"] = "gzip";
      body = gzipSync(Buffer.from(`${typeof body === "string" ? body : "{}"}`)).subarray(0, 12);
      label = "truncated gzip";
      break;
    case 4:
      headers["A2A-Version"] = rng.pick(["0.3", "2.0", "abc", "1.0.0.0"]);
      // A notification is answered before its version is looked at: still no body.
      failing = r.expect !== "no-body";
      label = `A2A-Version ${headers["A2A-Version"]}`;
      break;
    case 5:
      headers.authorization = `Bearer ${SECRETS.bearer}`;
      headers["x-a2a-notification-token"] = SECRETS.notificationToken;
      failing = false;
      label = "credentials";
      break;
    case 6:
      headers["x-noise"] = "n".repeat(4000);
      headers["x-forwarded-for"] = "10.0.0.1, ::1";
      failing = false;
      label = "noise headers";
      break;
    default:
      return r;
  }
  // A request that fails anyway is answered with an error whether or not it was a notification.
  const expect = failing ? "error" : r.expect;
  return { ...r, headers, body, expect, label: `${r.label} + ${label}` };
}

/** One hostile request. */
export function hostileRequest(rng: Rng): HostileRequest {
  const request = rng.chance(0.6) ? jsonRpcRequest(rng) : restRequest(rng);
  return rng.chance(0.3) ? damageHeaders(request, rng) : request;
}

/** Requests too rare to leave to the seed: each is sent once, after the generated ones. */
export const EDGE_REQUESTS: readonly HostileRequest[] = [
  {
    label: "URL over Node's header limit",
    method: "GET",
    path: `/a2a/rest/tasks/${"a".repeat(20_000)}`,
    headers: { ...V1 },
    expect: "error",
  },
  {
    label: "headers over Node's limit",
    method: "POST",
    path: "/a2a/jsonrpc",
    headers: { ...JSON_V1, "x-big": "b".repeat(20_000) },
    body: JSON.stringify(rpcBody("GetTask", { id: "x" })),
    expect: "error",
  },
  {
    label: "URL that is not percent-encoding",
    method: "GET",
    path: "/a2a/rest/tasks/%ZZ",
    headers: { ...V1 },
    expect: "error",
  },
];
