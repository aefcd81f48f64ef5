/**
 * docs/bindings.md's table of refused requests, held to the running server: every row is a
 * request sent to the real server (JSON-RPC and HTTP+JSON), whose answer must be the documented
 * code, HTTP status and, where the row quotes one, text. A row without a request here fails the
 * test, so the docs cannot document what nothing checks. Raw HTTP: the official client hides
 * the statuses.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { status as Status } from "@grpc/grpc-js";
import {
  a2a,
  freePort,
  perTest,
  rpcBody,
  says,
  tokenEntries,
  V1_JSON,
} from "../support/harness/index.js";
import { docPage } from "../support/docs/pages.js";
import {
  answerOf,
  documentedRows,
  jsonRpcExpectation,
  rawStatus,
  statusesOf,
  textPattern,
  type Answer,
} from "../support/docs/documented-answers.js";
import { GET_TASK, getTaskBytes, rawGrpcClient, SEND_MESSAGE } from "../support/grpc.js";
import { A2AService } from "@a2a-js/sdk/server/grpc";

const TIMEOUT = 120_000;

type Requests = (() => Promise<Answer | number>)[];
interface Case {
  readonly jsonrpc?: Requests;
  readonly rest?: Requests;
}

/** Rows no outside request can cause, and the test that holds each to its answer instead. */
const CHECKED_ELSEWHERE: Record<string, string> = {
  "a fault of the server itself":
    "test/unit/http/hostile-http.test.ts and compat.test.ts: a handler that throws",
};

describe("docs/bindings.md's refused requests, against the running server", () => {
  it(
    "answers every documented row with its documented code, status and text",
    async () => {
      const h = await a2a({
        rules: [says("Hello", "Hi.", "hello")],
        config: { server: { bodyLimit: "64kb" } },
      });
      const base = h.server.url;
      const port = Number(new URL(base).port);
      const done = await h.send("Hello");
      const rpc =
        (body: string | Uint8Array, headers: Record<string, string> = V1_JSON) =>
        () =>
          fetch(`${base}/a2a/jsonrpc`, { method: "POST", headers, body }).then(answerOf);
      const rest =
        (
          method: string,
          path: string,
          body?: string | Uint8Array,
          headers: Record<string, string> = V1_JSON,
        ) =>
        () =>
          fetch(`${base}/a2a/rest${path}`, { method, headers, body }).then(answerOf);
      const send = (message: unknown) => JSON.stringify({ message });
      const userMessage = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "Hello" }] };
      const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
      const big = "x".repeat(70 * 1024);
      const garbage = gzipSync("{}").subarray(0, 5);
      const gzip = { ...V1_JSON, "Content-Encoding": "gzip" };
      const charset = { ...V1_JSON, "Content-Type": "application/json; charset=klingon" };
      const hugeHeader = (path: string) =>
        `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`;
      const notHttp = "HELLO THERE\r\n\r\n";

      const cases: Record<string, Case> = {
        "no `A2A-Version` header": {
          jsonrpc: [rpc(rpcBody("GetTask", { id: "x" }), { "Content-Type": "application/json" })],
          rest: [rest("GET", "/tasks/x", undefined, {})],
        },
        "not JSON": { jsonrpc: [rpc("{")], rest: [rest("POST", "/message:send", "{")] },
        "a body that does not decode": {
          jsonrpc: [rpc(garbage, gzip), rpc(rpcBody("GetTask", { id: "x" }), charset)],
          rest: [
            rest("POST", "/message:send", garbage, gzip),
            rest("POST", "/message:send", send(userMessage), charset),
          ],
        },
        "over `server.bodyLimit`": {
          jsonrpc: [rpc(rpcBody("GetTask", { id: big }))],
          rest: [rest("POST", "/message:send", send({ ...userMessage, messageId: big }))],
        },
        "not one JSON-RPC request object": {
          jsonrpc: [rpc("[]"), rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: 7 }))],
        },
        "JSON nested deeper than 64 levels": {
          jsonrpc: [rpc(rpcBody("GetTask", { id: "x", extra: deep(70) }))],
          rest: [
            rest("POST", "/message:send", send({ ...userMessage, metadata: { d: deep(70) } })),
          ],
        },
        "a message whose `role` is not `ROLE_USER`": {
          jsonrpc: [
            rpc(rpcBody("SendMessage", { message: { ...userMessage, role: "ROLE_AGENT" } })),
          ],
          rest: [rest("POST", "/message:send", send({ ...userMessage, role: "ROLE_AGENT" }))],
        },
        "a negative `historyLength`": {
          jsonrpc: [rpc(rpcBody("GetTask", { id: done.id, historyLength: -3 }))],
          rest: [rest("GET", `/tasks/${done.id}?historyLength=-3`)],
        },
        "`CancelTask` of a task that has ended": {
          jsonrpc: [rpc(rpcBody("CancelTask", { id: done.id }))],
          rest: [rest("POST", `/tasks/${done.id}:cancel`)],
        },
        "a URL that is not valid percent-encoding": {
          rest: [rest("GET", "/tasks/%E0%A4%A")],
        },
        "a request line or headers over Node's limit": {
          jsonrpc: [
            () => rawStatus(port, hugeHeader("/a2a/jsonrpc")),
            () => rawStatus(port, notHttp),
          ],
          rest: [
            () => rawStatus(port, hugeHeader("/a2a/rest/tasks/x")),
            () => rawStatus(port, notHttp),
          ],
        },
      };

      const rows = documentedRows();
      expect(rows.length).toBeGreaterThan(10);
      for (const [request = "", jsonRpcCell = "", restCell = ""] of rows) {
        const key = Object.keys(cases).find((k) => request.startsWith(k));
        const elsewhere = Object.keys(CHECKED_ELSEWHERE).find((k) => request.startsWith(k));
        if (elsewhere !== undefined) continue;
        expect(key, `no request here checks the row "${request}"`).toBeDefined();
        const c = cases[key ?? ""] ?? {};
        const quoted = /`([^`]*<[^`]+>[^`]*)`/.exec(request)?.[1];

        const rpcExpected = jsonRpcExpectation(jsonRpcCell);
        const rpcAnswers = await Promise.all((c.jsonrpc ?? []).map((r) => r()));
        expect(rpcAnswers.length > 0, `JSON-RPC of "${request}"`).toBe(jsonRpcCell !== "");
        for (const a of rpcAnswers) {
          const status = typeof a === "number" ? a : a.status;
          expect(rpcExpected.statuses, `JSON-RPC status of "${request}"`).toContain(status);
          if (typeof a === "number" || rpcExpected.code === undefined) continue;
          expect(a.body?.error?.code, `JSON-RPC code of "${request}"`).toBe(rpcExpected.code);
          if (rpcExpected.text !== undefined) {
            expect(a.body?.error?.message, `JSON-RPC text of "${request}"`).toBe(rpcExpected.text);
          }
          if (quoted !== undefined) {
            expect(a.body?.error?.message, `JSON-RPC text of "${request}"`).toMatch(
              textPattern(quoted),
            );
          }
        }
        const restExpected = statusesOf(restCell);
        const restAnswers = await Promise.all((c.rest ?? []).map((r) => r()));
        expect(restAnswers.length > 0, `REST of "${request}"`).toBe(restCell !== "");
        const restStatuses = restAnswers.map((a) => (typeof a === "number" ? a : a.status));
        expect([...new Set(restStatuses)].sort(), `REST statuses of "${request}"`).toEqual(
          [...new Set(restExpected)].sort(),
        );
        if (quoted !== undefined) {
          for (const a of restAnswers) {
            if (typeof a === "number") continue;
            expect(a.body?.error?.message, `REST text of "${request}"`).toMatch(
              textPattern(quoted),
            );
          }
        }
      }
    },
    TIMEOUT,
  );

  it(
    "answers docs/protocol.md's replay refusals with their documented code and text, on both bindings",
    async () => {
      const h = await a2a({ rules: [says("Hello", "Hi.", "hello")] });
      const done = await h.send("Hello");
      const subscribe = async (cursor: string): Promise<Answer[]> => {
        const headers = { ...V1_JSON, "Last-Event-ID": cursor };
        const rpcAnswer = await fetch(`${h.server.url}/a2a/jsonrpc`, {
          method: "POST",
          headers,
          body: rpcBody("SubscribeToTask", { id: done.id }),
        }).then(answerOf);
        const restAnswer = await fetch(`${h.server.url}/a2a/rest/tasks/${done.id}:subscribe`, {
          headers,
        }).then(answerOf);
        return [rpcAnswer, restAnswer];
      };
      const cases: Record<string, () => Promise<Answer[]>> = {
        "cursor not a number (-32602)": () => subscribe("abc"),
        "cursor past the last (-32602)": () => subscribe("999"),
      };
      /** Rows no request to one server in a test can cause, and the tests that hold them. */
      const elsewhere: Record<string, string> = {
        "cursor too old":
          "its text only, in test/unit/contract/replay-readme.test.ts: a log with its head pruned " +
          "while the task lives needs a bound no test server sets",
        "none kept any more": "test/unit/http/replay-http.test.ts (retention)",
        "key of another caller":
          "test/unit/http/replay-http.test.ts and test/unit/a2a/handler/replay.test.ts (two callers)",
        "store full": "test/e2e/reliability-storage.test.ts (a full disk)",
        "store not answering":
          "its text only, in test/unit/contract/replay-readme.test.ts: no test server's store " +
          "stops answering",
      };
      const rows = documentedRows(docPage("protocol.md"), "| Contract item").filter(([item]) =>
        /\(-\d+/.test(item ?? ""),
      );
      expect(rows.length).toBeGreaterThan(5);
      for (const [item = "", value = ""] of rows) {
        if (Object.keys(elsewhere).some((k) => item.startsWith(k))) continue;
        const run = cases[item];
        expect(run, `no request here checks the row "${item}"`).toBeDefined();
        const code = Number(/\((-\d+)/.exec(item)?.[1]);
        const text = textPattern(/^`(.*)`$/.exec(value)?.[1] ?? value);
        const [rpcAnswer, restAnswer] = await (run ?? (() => Promise.resolve([])))();
        expect(rpcAnswer?.body?.error?.code, item).toBe(code);
        expect(rpcAnswer?.body?.error?.message, item).toMatch(text);
        expect(restAnswer?.status, item).toBe(400);
        expect(restAnswer?.body?.error?.message, item).toMatch(text);
      }
    },
    TIMEOUT,
  );

  it(
    "answers the gRPC binding's documented refusals with their status and text",
    async () => {
      const port = await freePort();
      const token = "ci-token-0123456789";
      await a2a({
        config: {
          server: {
            bodyLimit: "64kb",
            grpc: { port },
            auth: { tokens: tokenEntries({ ci: token }) },
          },
        },
        client: { token },
      });
      const raw = perTest(rawGrpcClient(`127.0.0.1:${port}`));
      const bearer = { authorization: `Bearer ${token}` };
      const agentMessage = A2AService.sendMessage.requestSerialize({
        tenant: "",
        message: {
          messageId: "m-1",
          contextId: "",
          taskId: "",
          role: 2,
          parts: [
            {
              content: { $case: "text", value: "Hello" },
              mediaType: "",
              filename: "",
              metadata: undefined,
            },
          ],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: undefined,
      });
      const cases: Record<string, () => Promise<{ code?: number; details?: string }>> = {
        "no `authorization` while tokens are configured": async () =>
          (await raw.unary(GET_TASK, getTaskBytes("x"))).error ?? {},
        "bytes that are not the method's protobuf message": async () =>
          (await raw.unary(SEND_MESSAGE, Buffer.from([0x0a, 0xff, 0xff, 0x01]), bearer)).error ??
          {},
        "a message the HTTP bindings refuse": async () =>
          (await raw.unary(SEND_MESSAGE, agentMessage, bearer)).error ?? {},
        "a request message over `server.bodyLimit`": async () =>
          (await raw.unary(GET_TASK, getTaskBytes("x".repeat(100 * 1024)), bearer)).error ?? {},
      };
      /** Rows a request to this server cannot cause, and the tests that hold them. */
      const elsewhere: Record<string, string> = {
        "a login `server.allowedLogins` does not list": "test/unit/grpc/auth.test.ts",
        "an OIDC token while the provider's keys": "test/unit/grpc/auth.test.ts",
        "a new task over a": "test/unit/grpc/answers.test.ts and server.test.ts",
        "a fault of the server": "test/unit/grpc/answers.test.ts",
      };
      const page = docPage("bindings.md");
      const rows = documentedRows(
        page.slice(page.indexOf("The binding's own:")),
        "| Request",
      ).filter(([, status]) => /^`[A-Z_]+`/.test(status ?? ""));
      expect(rows.length).toBeGreaterThan(6);
      for (const [request = "", status = ""] of rows) {
        if (Object.keys(elsewhere).some((k) => request.startsWith(k))) continue;
        const key = Object.keys(cases).find((k) => request.startsWith(k));
        expect(key, `no request here checks the gRPC row "${request}"`).toBeDefined();
        const none = () => Promise.resolve<{ code?: number; details?: string }>({});
        const error = await (cases[key ?? ""] ?? none)();
        const name = /^`([A-Z_]+)`/.exec(status)?.[1] ?? "";
        expect(error.code, request).toBe(Status[name as keyof typeof Status]);
        const quoted = /^`[A-Z_]+` `([^`]+)`/.exec(status)?.[1];
        if (quoted !== undefined) expect(error.details, request).toMatch(textPattern(quoted));
      }
    },
    TIMEOUT,
  );
});
