import { describe, expect, it } from "vitest";
import { copyTask } from "../../../src/store/copy-task.js";

const task = () => ({
  id: "t1",
  contextId: "c1",
  status: { state: 2, message: undefined, timestamp: "2026-12-07T19:00:00.000Z" },
  artifacts: [
    {
      artifactId: "a1",
      parts: [
        {
          content: { $case: "text", value: "hello" },
          metadata: undefined,
          filename: "",
          mediaType: "",
        },
        {
          content: { $case: "raw", value: Buffer.from([1, 2, 3]) },
          metadata: { n: [1, { deep: true }] },
        },
      ],
    },
  ],
  history: [],
  metadata: { eventNumber: 7, nested: { list: [null, "x", 0, false] } },
});

describe("copyTask", () => {
  it("returns an equal task, every level of it a new object", () => {
    const original = task();
    const copied = copyTask(original);
    expect(copied).toStrictEqual(original);
    expect(copied).not.toBe(original);
    expect(copied.artifacts).not.toBe(original.artifacts);
    expect(copied.artifacts[0]?.parts[1]?.metadata).not.toBe(
      original.artifacts[0]?.parts[1]?.metadata,
    );
    expect(copied.metadata.nested.list).not.toBe(original.metadata.nested.list);
  });

  it("leaves the original as it was when the copy is changed, and the other way round", () => {
    const original = task();
    const copied = copyTask(original);
    copied.metadata.nested.list.push("more");
    (copied.status as { state: number }).state = 5;
    copied.artifacts[0]?.parts.pop();
    expect(original).toStrictEqual(task());
    original.history.push({ id: "m" } as never);
    expect(copied.history).toEqual([]);
  });

  it("keeps a file part's bytes a Buffer of their own", () => {
    const original = task();
    const copied = copyTask(original);
    const bytes = (t: ReturnType<typeof task>) => t.artifacts[0]?.parts[1]?.content.value as Buffer;
    expect(Buffer.isBuffer(bytes(copied))).toBe(true);
    expect([...bytes(copied)]).toEqual([1, 2, 3]);
    bytes(copied)[0] = 9;
    expect(bytes(original)[0]).toBe(1);
  });

  it("keeps a field set to undefined, and copies other typed arrays and dates", () => {
    const copied = copyTask({ a: undefined, b: new Uint8Array([4]), c: new Date(5) });
    expect(Object.keys(copied)).toEqual(["a", "b", "c"]);
    expect(copied.b).toBeInstanceOf(Uint8Array);
    expect([...copied.b]).toEqual([4]);
    expect(copied.c.getTime()).toBe(5);
  });

  it("keeps a caller's own __proto__ key a key, as structuredClone does, and sets no prototype", () => {
    const metadata = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    ) as Record<string, unknown>;
    const copied = copyTask({ metadata });
    expect(JSON.stringify(copied)).toBe(JSON.stringify(structuredClone({ metadata })));
    expect(Object.getPrototypeOf(copied.metadata)).toBe(Object.prototype);
    expect(Object.keys(copied.metadata)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
