import { describe, expect, it } from "vitest";
import { classifyBodyError } from "../../../src/http/body.js";

const LIMIT = 1000;

describe("classifyBodyError", () => {
  it.each([
    [{ type: "entity.too.large" }, 413, -32600, /limit is 1000 bytes/],
    [{ type: "entity.parse.failed" }, 400, -32700, /^Invalid JSON payload\.$/],
    [new SyntaxError("Unexpected token o in JSON"), 400, -32700, /^Invalid JSON payload\.$/],
    [{ type: "encoding.unsupported" }, 415, -32600, /Unsupported body encoding/],
    [{ type: "charset.unsupported" }, 415, -32600, /Unsupported body encoding/],
    [{ type: "request.aborted" }, 400, -32600, /ended before its Content-Length/],
    [{ type: "request.size.invalid" }, 400, -32600, /ended before its Content-Length/],
    [{ code: "Z_DATA_ERROR", message: "incorrect header check" }, 400, -32600, /Content-Encoding/],
    [{ code: "Z_BUF_ERROR", message: "unexpected end of file" }, 400, -32600, /Content-Encoding/],
    [{ code: "ERR_BROTLI_DECOMPRESSION_FAILED" }, 400, -32600, /Content-Encoding/],
  ])("%j → HTTP %i, JSON-RPC %i, in the request's words", (err, status, jsonRpcCode, message) => {
    const e = classifyBodyError(err, LIMIT);
    expect(e).toMatchObject({ status, jsonRpcCode });
    expect(e?.message).toMatch(message);
    // Never the parser's or zlib's own text.
    expect(e?.message).not.toMatch(/header check|end of file|Unexpected token/);
  });

  it("leaves anything else to the final handler", () => {
    for (const err of [new Error("boom"), { type: "other" }, "x", null, undefined]) {
      expect(classifyBodyError(err, LIMIT)).toBeUndefined();
    }
  });
});
