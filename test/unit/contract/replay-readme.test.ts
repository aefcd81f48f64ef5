/** docs/protocol.md's "Event numbers, replay and idempotency" rows say what the code sends. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  EVENT_NUMBER_KEY,
  IDEMPOTENCY_KEY_HEADER,
  LAST_EVENT_ID_HEADER,
  LAST_EVENT_ID_METADATA_KEY,
  REPLAY_TEXT,
} from "../../../src/contract/replay.js";
import { STORE_FAULT_TEXT } from "../../../src/contract/store-faults.js";

const readme = readFileSync(new URL("../../../docs/protocol.md", import.meta.url), "utf8");
const section = readme.slice(readme.indexOf("### Event numbers, replay and idempotency"));
const rows = section.slice(0, section.indexOf("\n#"));

describe("the replay contract in docs/protocol.md", () => {
  it("names the metadata keys and headers the code reads and writes", () => {
    expect(rows).toContain(`\`metadata.${EVENT_NUMBER_KEY}\``);
    expect(rows).toContain(`\`metadata.${LAST_EVENT_ID_METADATA_KEY}\``);
    expect(rows.toLowerCase()).toContain(`\`${LAST_EVENT_ID_HEADER}\``);
    expect(rows.toLowerCase()).toContain(`\`${IDEMPOTENCY_KEY_HEADER}\``);
  });

  it("quotes every refusal text as the code writes it", () => {
    // Numbers stand for the placeholders docs/protocol.md writes.
    const placeholders = (text: string) =>
      text.replace("111", "<n>").replace("222", "<last>").replace("333", "<oldest>");
    const texts = [
      REPLAY_TEXT.badCursor("<value>"),
      placeholders(REPLAY_TEXT.ahead("<id>", 111, 222)),
      placeholders(REPLAY_TEXT.tooOld("<id>", 111, 333)),
      placeholders(REPLAY_TEXT.tooOld("<id>", 111, undefined)),
      REPLAY_TEXT.conflict("<key>"),
      STORE_FAULT_TEXT.full,
      STORE_FAULT_TEXT.unavailable,
    ];
    for (const text of texts) expect(rows).toContain(text);
  });
});
