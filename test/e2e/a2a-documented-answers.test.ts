/**
 * docs/bindings.md's table of refused requests, held to the running server: every row is a
 * request sent to the real server (JSON-RPC and HTTP+JSON), whose answer must be the documented
 * code, HTTP status and, where the row quotes one, text. A row without a request here fails the
 * test, so the docs cannot document what nothing checks. Raw HTTP: the official client hides
 * the statuses.
 */
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { a2a, rpcBody, says, V1_JSON } from "../support/harness/index.js";
import { docPage } from "../support/docs/pages.js";

const TIMEOUT = 120_000;

interface Answer {
  readonly status: number;
  readonly body?: { error?: { code?: number; message?: string } };
}

/** The rows of the table of `page` whose header starts with `header`, as trimmed cells. */
function documentedRows(page = docPage("bindings.md"), header = "| Request "): string[][] {
  const lines = page.slice(page.indexOf(header)).split("\n");
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** What a JSON-RPC cell says: the error code, the HTTP statuses (default 200), a quoted text. */
function jsonRpcExpectation(cell: string) {
  const code = /`(-\d+)`/.exec(cell)?.[1];
  const http = /HTTP ([\d /]+)/.exec(cell)?.[1];
  const text = [...cell.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1])
    .find((t) => !/^-\d+$/.test(t ?? ""));
  return {
    code: code === undefined ? undefined : Number(code),
    statuses: http === undefined ? [200] : http.split("/").map((s) => Number(s.trim())),
    text,
  };
}

const statusesOf = (cell: string): number[] => (cell.match(/\d{3}/g) ?? []).map(Number);

/** A documented text (`<n>` for any value) as a pattern. */
const textPattern = (text: string) =>
  new RegExp(
    `^${text
      .split(/(<[^>]+>)/)
      .map((p) => (/^<[^>]+>$/.test(p) ? "[\\s\\S]*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  );

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Answer["body"] };
  } catch {
    return { status: res.status };
  }
}

/** Raw bytes to the server, its status line's code. */
function rawStatus(port: number, bytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("end", () => reject(new Error(`no status line: ${got}`)));
  });
}

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
});
