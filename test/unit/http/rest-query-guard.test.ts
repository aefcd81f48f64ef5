/** A negative `historyLength` query parameter gets the text every binding gives, before the SDK. */
import { afterEach, describe, expect, it } from "vitest";
import { start, stopApp } from "./support/stub-app.js";
import { V1 } from "./support/stub-handler.js";

afterEach(stopApp);

describe("restHistoryLengthGuard", () => {
  it.each([
    ["/a2a/rest/tasks/t-1?historyLength=-2", "historyLength must be 0 or more (got -2)"],
    ["/a2a/rest/tasks?historyLength=-1", "historyLength must be 0 or more (got -1)"],
  ])("%s is refused 400: %s", async (path, message) => {
    const r = await start();
    const res = await fetch(`${r.url}${path}`, { headers: V1 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, message } });
    expect(r.handler.calls).toEqual([]);
  });

  it("lets 0 and a positive length through to the handler", async () => {
    const r = await start();
    const res = await fetch(`${r.url}/a2a/rest/tasks/t-1?historyLength=0`, { headers: V1 });
    expect(res.status).toBe(200);
    expect(r.handler.calls.map((c) => c.method)).toEqual(["getTask"]);
  });
});
