import { describe, expect, it } from "vitest";
import { rewindPoint } from "../../../src/claude/rewind.js";

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const user = (uuid: string, parentUuid: string | null, content: unknown) =>
  line({ type: "user", uuid, parentUuid, message: { role: "user", content } });
const assistant = (uuid: string, parentUuid: string, text: string, apiError = false) =>
  line({
    type: "assistant",
    uuid,
    parentUuid,
    ...(apiError && { isApiErrorMessage: true }),
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
const attachment = (uuid: string, parentUuid: string) =>
  line({ type: "attachment", uuid, parentUuid });

describe("rewindPoint", () => {
  it("is the last assistant message before the prompt the API rejected", () => {
    const transcript = [
      line({ type: "queue-operation", content: "Remember kiwi" }),
      user("u1", null, "Remember kiwi"),
      attachment("a1", "u1"),
      assistant("m1", "a1", "Remembered."),
      attachment("a2", "m1"),
      user("u2", "a2", "POISON"),
      attachment("a3", "u2"),
      assistant("e1", "a3", "API Error: 400 Bad request", true),
      "{torn",
    ].join("\n");
    expect(rewindPoint(transcript)).toBe("m1");
  });

  it("skips the turn's tool results back to its prompt", () => {
    const transcript = [
      user("u1", null, "Hello"),
      assistant("m1", "u1", "Hi."),
      user("u2", "m1", [{ type: "text", text: "Look at this image" }]),
      assistant("m2", "u2", "Reading it."),
      user("t1", "m2", [{ type: "tool_result", tool_use_id: "x", content: "…" }]),
      assistant("e1", "t1", "API Error: 400 image could not be processed", true),
    ].join("\n");
    expect(rewindPoint(transcript)).toBe("m1");
  });

  it("is undefined when the first prompt was rejected, or there is no API error", () => {
    expect(
      rewindPoint(
        [user("u1", null, "POISON"), assistant("e1", "u1", "API Error: 400", true)].join("\n"),
      ),
    ).toBeUndefined();
    expect(
      rewindPoint([user("u1", null, "Hi"), assistant("m1", "u1", "Hello")].join("\n")),
    ).toBeUndefined();
    expect(rewindPoint("")).toBeUndefined();
  });
});
