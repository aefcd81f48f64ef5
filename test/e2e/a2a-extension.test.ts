/**
 * Our event contract as a declared A2A extension: the card lists it, a client activates it with
 * the `A2A-Extensions` header and the server says so in its answer's; the events are the same
 * whether a client activates it or not.
 */
import { describe, expect, it } from "vitest";
import { CONTROL_EXTENSION_URI } from "../../src/contract/control.js";
import { EVENTS_EXTENSION_URI } from "../../src/contract/extension.js";
import { GENERATIONS_EXTENSION_URI } from "../../src/contract/generations.js";
import { a2a, afterTool, postRpc, reply, toolUse } from "../support/harness/index.js";

type Json = Record<string, unknown>;

/** `metadata.kind` of each message of a task's history (ProtoJSON), `-` for none. */
const kinds = (task: Json) =>
  (task.history as { metadata?: { kind?: string } }[]).map((m) => m.metadata?.kind ?? "-");

describe("the event extension", () => {
  it("is listed in the card, echoed when activated, and changes no event", async () => {
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Look around", toolResult: false },
          reply: reply(toolUse("Bash", { command: "echo hi", description: "Say hi" })),
        },
        afterTool(/hi/, "Looked."),
      ],
    });
    const card = (await h.client.getAgentCard()).capabilities?.extensions ?? [];
    // ProtoJSON leaves `required: false` out.
    // Beside it, the control extension (server.control.steer is on by default) and the
    // generations one (replay.enabled is on by default); none required.
    expect(card.map((e) => [e.uri, Boolean(e.required)])).toEqual([
      [EVENTS_EXTENSION_URI, false],
      [CONTROL_EXTENSION_URI, false],
      [GENERATIONS_EXTENSION_URI, false],
    ]);

    const activated = await postRpc(
      h.server.url,
      "SendMessage",
      {
        message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "Look around" }] },
      },
      {
        headers: {
          "Content-Type": "application/json",
          "A2A-Version": "1.0",
          "A2A-Extensions": EVENTS_EXTENSION_URI,
        },
      },
    );
    expect(activated.headers.get("a2a-extensions")).toBe(EVENTS_EXTENSION_URI);
    const withIt = ((await activated.json()) as { result: { task: Json } }).result.task;

    // The official client activates nothing: the same task shape, the same kinds.
    const without = await h.send("Look around");
    const withoutJson = (await (
      await postRpc(h.server.url, "GetTask", { id: without.id }, { id: 2 })
    ).json()) as { result: Json };
    // History holds the exchanged messages only (progress such as tool_use stays in the stream).
    expect(kinds(withIt)).toEqual(["-", "result"]);
    expect(kinds(withoutJson.result)).toEqual(kinds(withIt));
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
