import { describe, expect, it } from "vitest";
import { SETTINGS_SETTLE_MS, SpareSiteWatch } from "../../../src/sessions/spare-site-watch.js";
import { ManualTimers } from "./support/pool.js";

/** A watch the test fires by hand: the file events of each folder watched. */
function fakeWatch() {
  const fire = new Map<string, () => void>();
  const stopped: string[] = [];
  const watch = (cwd: string, changed: () => void) => {
    fire.set(cwd, changed);
    return () => {
      fire.delete(cwd);
      stopped.push(cwd);
    };
  };
  return { watch, fire, stopped };
}

describe("SpareSiteWatch", () => {
  it("reports a save of several file events once, after the events stop", () => {
    const timers = new ManualTimers();
    const w = fakeWatch();
    let changes = 0;
    const site = new SpareSiteWatch(w.watch, timers, () => changes++);
    site.follow("/w");
    // Create (empty), write, rename: each event comes before the previous one settled.
    for (let i = 0; i < 3; i++) {
      w.fire.get("/w")?.();
      timers.advance(SETTINGS_SETTLE_MS - 1);
    }
    expect(changes).toBe(0);
    timers.advance(1);
    expect(changes).toBe(1);
    timers.advance(SETTINGS_SETTLE_MS * 10);
    expect(changes).toBe(1);
    // A later save is a change of its own.
    w.fire.get("/w")?.();
    timers.advance(SETTINGS_SETTLE_MS);
    expect(changes).toBe(2);
  });

  it("watches one folder at a time, and nothing once closed", () => {
    const timers = new ManualTimers();
    const w = fakeWatch();
    let changes = 0;
    const site = new SpareSiteWatch(w.watch, timers, () => changes++);
    site.follow("/a");
    site.follow("/a");
    expect([...w.fire.keys()]).toEqual(["/a"]);
    site.follow("/b");
    expect([...w.fire.keys()]).toEqual(["/b"]);
    expect(w.stopped).toEqual(["/a"]);
    w.fire.get("/b")?.();
    site.close();
    timers.advance(SETTINGS_SETTLE_MS * 2);
    expect(changes).toBe(0);
    expect(w.stopped).toEqual(["/a", "/b"]);
    expect(timers.armed).toBe(0);
  });

  it("without a watch (none configured) follows nothing", () => {
    const site = new SpareSiteWatch(undefined, new ManualTimers(), () => undefined);
    expect(() => {
      site.follow("/w");
      site.close();
    }).not.toThrow();
  });
});
