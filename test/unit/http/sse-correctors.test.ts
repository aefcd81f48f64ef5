/** The corrections of the SSE chunks the SDK writes: pure functions, each a table; the lists. */
import { describe, expect, it } from "vitest";
import { JSONRPC_SSE, REST_SSE } from "../../../src/http/answer-lists.js";
import {
  correctedChunk,
  jsonRpcSseError,
  sseEventId,
  type SseChunk,
  type SseCorrector,
  type SseRequest,
} from "../../../src/http/sse-correctors.js";
import { SSE_EVENT_NUMBER_STATE_KEY } from "../../../src/contract/replay.js";

const numbered = (n: unknown): SseRequest => ({
  body: { id: 7 },
  state: new Map([[SSE_EVENT_NUMBER_STATE_KEY, n]]),
  status: 200,
});
const plain: SseRequest = { body: { id: 7 }, state: undefined, status: 200 };
const errorEvent = (body: unknown) => `event: error\ndata: ${JSON.stringify(body)}\n\n`;
const internal = { jsonrpc: "2.0", id: null, error: { code: -32603, message: "ECONNRESET at x" } };

interface Row {
  readonly name: string;
  readonly correct: SseCorrector;
  readonly chunk: string;
  readonly request: SseRequest;
  readonly want: SseChunk;
}

const rows: Row[] = [
  {
    name: "an event gets its number as id",
    correct: sseEventId,
    chunk: 'data: {"a":1}\n\n',
    request: numbered(12),
    want: { text: 'id: 12\ndata: {"a":1}\n\n' },
  },
  {
    name: "no number in the call's state: no id",
    correct: sseEventId,
    chunk: 'data: {"a":1}\n\n',
    request: plain,
    want: { text: 'data: {"a":1}\n\n' },
  },
  {
    name: "a number that is not a number: no id",
    correct: sseEventId,
    chunk: 'data: {"a":1}\n\n',
    request: numbered("12"),
    want: { text: 'data: {"a":1}\n\n' },
  },
  {
    name: "an error event gets no id",
    correct: sseEventId,
    chunk: errorEvent(internal),
    request: numbered(12),
    want: { text: errorEvent(internal) },
  },
  {
    name: "an internal error's text is hidden, and the request's id put back",
    correct: jsonRpcSseError,
    chunk: errorEvent(internal),
    request: plain,
    want: {
      text: errorEvent({
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32603, message: "Internal error." },
      }),
      hidden: { message: "ECONNRESET at x" },
    },
  },
  {
    name: "another error keeps its text; the id is put back",
    correct: jsonRpcSseError,
    chunk: errorEvent({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "nope" } }),
    request: plain,
    want: { text: errorEvent({ jsonrpc: "2.0", id: 7, error: { code: -32001, message: "nope" } }) },
  },
  {
    name: "an event that is not an error passes",
    correct: jsonRpcSseError,
    chunk: 'data: {"a":1}\n\n',
    request: plain,
    want: { text: 'data: {"a":1}\n\n' },
  },
  {
    name: "an error event whose data is not JSON passes",
    correct: jsonRpcSseError,
    chunk: "event: error\ndata: {oops\n\n",
    request: plain,
    want: { text: "event: error\ndata: {oops\n\n" },
  },
];

describe("SSE correctors", () => {
  it.each(rows)("$name", ({ correct, chunk, request, want }) => {
    const given = { text: chunk };
    expect(correct(given, request)).toEqual(want);
    // Pure: the chunk it was given is unchanged.
    expect(given).toEqual({ text: chunk });
  });
});

describe("the lists", () => {
  it("JSON-RPC corrects an error before it numbers events; REST only numbers them", () => {
    expect(JSONRPC_SSE).toEqual([jsonRpcSseError, sseEventId]);
    expect(REST_SSE).toEqual([sseEventId]);
  });

  it("a JSON-RPC stream's chunks through the whole list", () => {
    expect(correctedChunk(JSONRPC_SSE, { text: 'data: {"a":1}\n\n' }, numbered(3))).toEqual({
      text: 'id: 3\ndata: {"a":1}\n\n',
    });
    expect(correctedChunk(JSONRPC_SSE, { text: errorEvent(internal) }, numbered(3)).hidden).toEqual(
      { message: "ECONNRESET at x" },
    );
  });
});
