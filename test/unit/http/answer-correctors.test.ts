/** The corrections of the SDK's JSON answers: pure functions, each a table; the lists' order. */
import { describe, expect, it } from "vitest";
import {
  correctedAnswer,
  type AnswerCorrector,
  type AnswerRequest,
  type JsonAnswer,
} from "../../../src/http/answer-correctors.js";
import { JSONRPC_ANSWERS, REST_ANSWERS } from "../../../src/http/answer-lists.js";
import { jsonRpcErrorAnswer, restErrorAnswer } from "../../../src/http/error-answers.js";
import {
  jsonRpcGenerationAnswer,
  restGenerationAnswer,
} from "../../../src/http/generation-answers.js";
import { jsonRpcLimitAnswer, restLimitAnswer } from "../../../src/http/limit-answers.js";
import { restContentTypeAnswer } from "../../../src/http/rest-errors.js";
import { GENERATION_TEXT } from "../../../src/contract/generations.js";
import { REFUSAL_STATE_KEY } from "../../../src/contract/limits.js";
import { REPLAY_TEXT } from "../../../src/contract/replay.js";
import { STORE_FAULT_TEXT } from "../../../src/contract/store-faults.js";

const MISMATCH = GENERATION_TEXT.mismatch("t1", 3, 5);
const info = {
  reason: "TASK_RATE_LIMIT_EXCEEDED",
  domain: "d",
  metadata: { retryAfterSeconds: "7" },
};
const limited: AnswerRequest = { body: { id: 4 }, state: new Map([[REFUSAL_STATE_KEY, info]]) };
const plain: AnswerRequest = { body: { id: 4 }, state: new Map() };
const rpc = (error: Record<string, unknown>, id: unknown = null) => ({ jsonrpc: "2.0", id, error });
const details = (reason: string) => [{ "@type": "info", reason }];

interface Row {
  readonly name: string;
  readonly correct: AnswerCorrector;
  readonly answer: JsonAnswer;
  readonly request?: AnswerRequest;
  readonly want: JsonAnswer;
}

const rows: Row[] = [
  {
    name: "JSON-RPC generation mismatch: -32010 and its reason",
    correct: jsonRpcGenerationAnswer,
    answer: { status: 200, body: rpc({ code: -32004, message: MISMATCH, data: details("X") }) },
    want: {
      status: 200,
      body: rpc({ code: -32010, message: MISMATCH, data: details("TASK_GENERATION_MISMATCH") }),
    },
  },
  {
    name: "JSON-RPC: another error passes as it is",
    correct: jsonRpcGenerationAnswer,
    answer: { status: 200, body: rpc({ code: -32004, message: "no" }) },
    want: { status: 200, body: rpc({ code: -32004, message: "no" }) },
  },
  {
    name: "REST generation mismatch: 409 ABORTED",
    correct: restGenerationAnswer,
    answer: { status: 400, body: { error: { code: 400, message: MISMATCH, details: [] } } },
    want: {
      status: 409,
      body: { error: { code: 409, status: "ABORTED", message: MISMATCH, details: [] } },
    },
  },
  {
    name: "JSON-RPC limit refusal: -32029 with its ErrorInfo",
    correct: jsonRpcLimitAnswer,
    request: limited,
    answer: { status: 200, body: rpc({ code: -32603, message: "limit" }) },
    want: { status: 200, body: rpc({ code: -32029, message: "limit", data: [info] }) },
  },
  {
    name: "JSON-RPC: no refusal in the request's state, nothing changes",
    correct: jsonRpcLimitAnswer,
    answer: { status: 200, body: rpc({ code: -32603, message: "limit" }) },
    want: { status: 200, body: rpc({ code: -32603, message: "limit" }) },
  },
  {
    name: "REST limit refusal: 429 RESOURCE_EXHAUSTED and Retry-After",
    correct: restLimitAnswer,
    request: limited,
    answer: { status: 500, body: { error: { code: 500, message: "limit" } } },
    want: {
      status: 429,
      headers: { "Retry-After": "7" },
      body: {
        error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "limit", details: [info] },
      },
    },
  },
  {
    name: "REST v0.3 limit refusal: the bare body gets -32029 and data",
    correct: restLimitAnswer,
    request: limited,
    answer: { status: 500, body: { code: -32603, message: "limit" } },
    want: {
      status: 429,
      headers: { "Retry-After": "7" },
      body: { code: -32029, message: "limit", data: [info] },
    },
  },
  {
    name: "JSON-RPC error: the request's own id (0 kept)",
    correct: jsonRpcErrorAnswer,
    request: { body: { id: 0 }, state: undefined },
    answer: { status: 200, body: rpc({ code: -32001, message: "gone" }, null) },
    want: { status: 200, body: rpc({ code: -32001, message: "gone" }, 0) },
  },
  {
    name: "JSON-RPC internal error: its text hidden, and handed on to be logged",
    correct: jsonRpcErrorAnswer,
    answer: { status: 200, body: rpc({ code: -32603, message: "ENOENT /secret" }) },
    want: {
      status: 200,
      body: rpc({ code: -32603, message: "Internal error." }, 4),
      hidden: { message: "ENOENT /secret" },
    },
  },
  {
    name: "JSON-RPC internal error that is a store fault: said as it is",
    correct: jsonRpcErrorAnswer,
    answer: { status: 200, body: rpc({ code: -32603, message: STORE_FAULT_TEXT.full }) },
    want: { status: 200, body: rpc({ code: -32603, message: STORE_FAULT_TEXT.full }, 4) },
  },
  {
    name: "JSON-RPC success: untouched",
    correct: jsonRpcErrorAnswer,
    answer: { status: 200, body: { jsonrpc: "2.0", id: 4, result: {} } },
    want: { status: 200, body: { jsonrpc: "2.0", id: 4, result: {} } },
  },
  {
    name: "REST 5xx: its text hidden",
    correct: restErrorAnswer,
    answer: { status: 500, body: { error: { code: 500, message: "EACCES" } } },
    want: {
      status: 500,
      body: { error: { code: 500, message: "Internal error." } },
      hidden: { message: "EACCES" },
    },
  },
  {
    name: "REST v0.3 5xx: the bare body's text hidden",
    correct: restErrorAnswer,
    answer: { status: 500, body: { code: -32603, message: "EACCES" } },
    want: {
      status: 500,
      body: { code: -32603, message: "Internal error." },
      hidden: { message: "EACCES" },
    },
  },
  {
    name: "REST 4xx: said as it is",
    correct: restErrorAnswer,
    answer: { status: 404, body: { error: { code: 404, message: "no task" } } },
    want: { status: 404, body: { error: { code: 404, message: "no task" } } },
  },
  {
    name: "REST ContentTypeNotSupported: 415",
    correct: restContentTypeAnswer,
    answer: {
      status: 400,
      body: { error: { code: 400, details: details("CONTENT_TYPE_NOT_SUPPORTED") } },
    },
    want: {
      status: 415,
      body: { error: { code: 415, details: details("CONTENT_TYPE_NOT_SUPPORTED") } },
    },
  },
  {
    name: "REST TaskNotCancelable: 409",
    correct: restContentTypeAnswer,
    answer: {
      status: 400,
      body: { error: { code: 400, details: details("TASK_NOT_CANCELABLE") } },
    },
    want: { status: 409, body: { error: { code: 409, details: details("TASK_NOT_CANCELABLE") } } },
  },
  {
    name: "REST idempotency conflict: 409",
    correct: restContentTypeAnswer,
    answer: { status: 400, body: { error: { code: 400, message: REPLAY_TEXT.conflict("k") } } },
    want: { status: 409, body: { error: { code: 409, message: REPLAY_TEXT.conflict("k") } } },
  },
  {
    name: "REST: another 400 stays",
    correct: restContentTypeAnswer,
    answer: { status: 400, body: { error: { code: 400, details: details("INVALID") } } },
    want: { status: 400, body: { error: { code: 400, details: details("INVALID") } } },
  },
];

describe("answer correctors", () => {
  it.each(rows)("$name", ({ correct, answer, request = plain, want }) => {
    const before = structuredClone(answer);
    expect(correct(answer, request)).toEqual(want);
    // Pure: the answer it was given is as it was.
    expect(answer).toEqual(before);
  });
});

describe("the lists run in their order", () => {
  it("JSON-RPC: a limit's refusal is corrected before the internal error would be hidden", () => {
    const answer = { status: 200, body: rpc({ code: -32603, message: "limit" }) };
    expect(correctedAnswer(JSONRPC_ANSWERS, answer, limited)).toEqual({
      status: 200,
      body: rpc({ code: -32029, message: "limit", data: [info] }, 4),
    });
  });

  it("REST: a limit's 500 becomes 429 before a 5xx's text would be hidden", () => {
    const answer = { status: 500, body: { error: { code: 500, message: "limit" } } };
    const corrected = correctedAnswer(REST_ANSWERS, answer, limited);
    expect(corrected.status).toBe(429);
    expect(corrected.hidden).toBeUndefined();
    expect(corrected.body).toMatchObject({ error: { message: "limit" } });
  });
});
