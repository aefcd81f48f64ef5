import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import {
  callContextOf,
  conversationKey,
  ownerOf,
  parseConversationKey,
  upgradeSessionKey,
  type ConversationKey,
} from "../../../src/identity/conversation.js";
import { CallerUser } from "../../../src/identity/caller.js";
import { SESSIONS_FILE } from "../../../src/store/session-map.js";
import { openLocalSessionMap } from "../../../src/store/open-session-map.js";

describe("conversation keys", () => {
  it("round-trip whatever the strings hold, and never collide across callers", () => {
    const odd = ["", "a,b", '["x","y"]', "__proto__", "line\nbreak", "ünï"];
    const keys = new Set<string>();
    for (const owner of ["unknown", "login:ada", "token:ci", ...odd]) {
      for (const contextId of odd) {
        const key = conversationKey({ owner, contextId });
        expect(parseConversationKey(key)).toEqual({ owner, contextId });
        keys.add(key);
      }
    }
    expect(keys.size).toBe(9 * odd.length);
    expect(parseConversationKey("ctx-1")).toBeUndefined();
    expect(parseConversationKey('["only one"]')).toBeUndefined();
  });

  it("gives each caller its own scope, the SDK stores' own", () => {
    const of = (user?: CallerUser) => ownerOf(new ServerCallContext(user ? { user } : {}));
    expect(of()).toBe("unknown");
    expect(of(new CallerUser({ kind: "anonymous" }))).toBe("unknown");
    expect(of(new CallerUser({ kind: "login", login: "unknown" }))).toBe("login:unknown");
    expect(of(new CallerUser({ kind: "token", name: "ci" }))).toBe("token:ci");
    expect(ownerOf(callContextOf("token:ci"))).toBe("token:ci");
    expect(ownerOf(callContextOf("unknown"))).toBe("unknown");
  });

  it("upgrades a session map of bare contextIds to the anonymous caller's, stored too", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "conv-"));
    try {
      await mkdir(join(cwd, ".claude"));
      const file = join(cwd, SESSIONS_FILE);
      const updatedAt = new Date(0).toISOString();
      await writeFile(
        file,
        JSON.stringify({ version: 1, sessions: { "ctx-1": { sessionId: "s-1", updatedAt } } }),
      );
      const logger = { warn: () => undefined };
      const map = await openLocalSessionMap({ cwd, logger, upgradeKey: upgradeSessionKey });
      const key = conversationKey({ owner: "unknown", contextId: "ctx-1" });
      expect(map.get(key)?.sessionId).toBe("s-1");
      // A bare contextId (which the type no longer lets through) finds nothing.
      expect(map.get("ctx-1" as ConversationKey)).toBeUndefined();
      await map.close();
      const reopened = await openLocalSessionMap({ cwd, logger });
      expect([...reopened.all().keys()]).toEqual([key]);
      await reopened.close();
      expect(upgradeSessionKey(key)).toBe(key);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
