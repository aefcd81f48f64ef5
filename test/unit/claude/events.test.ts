import { describe, expect, it } from "vitest";
import { SessionEmitter, type SessionEvent } from "../../../src/claude/events.js";
import { silentLogger } from "./support/helpers.js";

const closed = (reason: string): SessionEvent => ({ type: "closed", reason });
const reasonOf = (e: SessionEvent) => (e.type === "closed" ? e.reason : e.type);

describe("SessionEmitter", () => {
  it("delivers the events a listener causes after the current one, to every listener, in order", () => {
    const emitter = new SessionEmitter(silentLogger);
    const a: string[] = [];
    const b: string[] = [];
    emitter.subscribe((e) => {
      a.push(reasonOf(e));
      if (reasonOf(e) === "1") {
        emitter.emit(closed("2"));
        emitter.emit(closed("3"));
      }
    });
    emitter.subscribe((e) => b.push(reasonOf(e)));
    emitter.emit(closed("1"));
    emitter.emit(closed("4"));
    expect(a).toEqual(["1", "2", "3", "4"]);
    expect(b).toEqual(["1", "2", "3", "4"]);
  });

  it("a listener added during a delivery hears from the next event on", () => {
    const emitter = new SessionEmitter(silentLogger);
    const late: string[] = [];
    emitter.subscribe((e) => {
      if (reasonOf(e) === "1") {
        emitter.subscribe((x) => late.push(reasonOf(x)));
        emitter.emit(closed("2"));
      }
    });
    emitter.emit(closed("1"));
    expect(late).toEqual(["2"]);
  });

  it("a listener removed during a delivery still gets that event, and none after", () => {
    const emitter = new SessionEmitter(silentLogger);
    const second: string[] = [];
    let off: () => void = () => undefined;
    emitter.subscribe((e) => {
      if (reasonOf(e) === "1") off();
    });
    off = emitter.subscribe((e) => second.push(reasonOf(e)));
    emitter.emit(closed("1"));
    emitter.emit(closed("2"));
    expect(second).toEqual(["1"]);
  });

  it("a throwing listener reaches neither the emitter nor the other listeners", () => {
    const emitter = new SessionEmitter(silentLogger);
    const heard: string[] = [];
    emitter.subscribe(() => {
      throw new Error("listener bug");
    });
    emitter.subscribe((e) => heard.push(reasonOf(e)));
    expect(() => emitter.emit(closed("1"))).not.toThrow();
    emitter.emit(closed("2"));
    expect(heard).toEqual(["1", "2"]);
  });

  it("the same listener subscribed twice hears each event once", () => {
    const emitter = new SessionEmitter(silentLogger);
    const heard: string[] = [];
    const listener = (e: SessionEvent) => heard.push(reasonOf(e));
    emitter.subscribe(listener);
    const off = emitter.subscribe(listener);
    emitter.emit(closed("1"));
    off();
    emitter.emit(closed("2"));
    expect(heard).toEqual(["1"]);
  });
});
