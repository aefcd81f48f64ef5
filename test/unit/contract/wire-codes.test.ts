import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { HTTP_STATUS, JSONRPC_CODE } from "../../../src/contract/wire-codes.js";

const SRC = new URL("../../../src/", import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

/** A line's code, without its comment (a line comment, or a line of a block comment). */
const codeOf = (line: string): string =>
  /^\s*(\*|\/\*|\/\/)/.test(line) ? "" : line.replace(/\/\/.*$/, "");

describe("the wire's code tables (src/contract/wire-codes.ts)", () => {
  it("keep every code of the SDK's A2A_ERROR_CODE as it is", () => {
    expect(JSONRPC_CODE).toMatchObject(A2A_ERROR_CODE);
  });

  it.each([
    ["JSON-RPC codes", Object.values(JSONRPC_CODE)],
    ["HTTP statuses", Object.values(HTTP_STATUS)],
  ])("give each name its own number (%s)", (_name, values) => {
    expect(new Set(values).size).toBe(values.length);
  });

  it("place the server's own JSON-RPC codes in the implementation-defined server range", () => {
    for (const code of [JSONRPC_CODE.LIMIT_EXCEEDED, JSONRPC_CODE.TASK_GENERATION_MISMATCH]) {
      expect(code).toBeGreaterThanOrEqual(-32099);
      expect(code).toBeLessThanOrEqual(-32000);
    }
  });

  it("are the only place in src/ a JSON-RPC error code is written as a number", () => {
    const table = join(SRC, "contract", "wire-codes.ts");
    const literals = files(SRC)
      .filter((f) => f.endsWith(".ts") && f !== table)
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .map((line, i) => [i + 1, codeOf(line)] as const)
          .filter(([, code]) => /-32\d{3}\b/.test(code))
          .map(([n, code]) => `${relative(SRC, f)}:${n}: ${code.trim()}`),
      );
    expect(literals).toEqual([]);
  });
});
