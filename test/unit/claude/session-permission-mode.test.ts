import { describe, expect, it } from "vitest";
import { reportedPermissionMode, settingsSwitch } from "../../../src/claude/turn-settings.js";
import { Normalizer } from "../../../src/claude/normalize.js";
import { collect } from "./support/helpers.js";
import { reply, SESSION_ID } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

/** The runtime's frame after a mode change (setPermissionMode, or leaving plan mode itself). */
const statusFrame = (permissionMode: unknown) => ({
  type: "system",
  subtype: "status",
  status: null,
  permissionMode,
  uuid: crypto.randomUUID(),
  session_id: SESSION_ID,
});

const normalize = (frame: unknown) => new Normalizer().normalize(frame);

describe("a prompt's permission mode (pure)", () => {
  it.each([
    [
      { permissionMode: "acceptEdits" },
      { permissionMode: "plan" },
      { permissionMode: { to: "plan" } },
    ],
    [{ permissionMode: "plan" }, { permissionMode: "plan" }, {}],
    [{ permissionMode: "plan" }, { permissionMode: undefined }, {}],
  ] as const)("from %j to %j switches %j", (current, next, expected) => {
    expect(settingsSwitch(current, next)).toEqual(expected);
  });

  it.each([
    [statusFrame("acceptEdits"), "acceptEdits"],
    [statusFrame("plan"), "plan"],
    [statusFrame("sideways"), undefined],
    [statusFrame(undefined), undefined],
    [
      { type: "system", subtype: "init", permissionMode: "plan", session_id: SESSION_ID },
      undefined,
    ],
  ])("the runtime's %j reports %s", (frame, mode) => {
    expect(reportedPermissionMode(normalize(frame))).toBe(mode);
  });
});

describe("ClaudeSession: a prompt's permission mode", () => {
  it("spawns in the first prompt's mode, switches back for one that asks for none, and follows the mode the runtime reports", async () => {
    const { fake, session } = scriptedSession({ permissionMode: "acceptEdits" });
    const turn = async (index: number, frames: unknown[], mode?: "plan") => {
      const stream = session.stream(`p${index}`, mode && { permissionMode: mode });
      const sent = await fake.query.sentMessage(index);
      const out = collect(stream);
      await fake.query.feed(...frames, ...reply(String(sent.uuid), `m${index}`, "ok"));
      expect((await out).at(-1)?.kind).toBe("run_completed");
    };
    // An approved plan: the runtime says it left plan mode for the workspace's.
    await turn(0, [statusFrame("acceptEdits")], "plan");
    expect(fake.query.options.permissionMode).toBe("plan");
    expect(fake.query.switches).toEqual([]);
    await turn(1, [], "plan");
    expect(fake.query.switches).toEqual([{ permissionMode: "plan" }]);
    // Still in plan mode (no report since): back to the session's own, once.
    await turn(2, []);
    await turn(3, []);
    expect(fake.query.switches).toEqual([
      { permissionMode: "plan" },
      { permissionMode: "acceptEdits" },
    ]);
    expect(fake.queries).toHaveLength(1);
  });
});
