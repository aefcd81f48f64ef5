import { describe, expect, it } from "vitest";
import { OwnershipIndex } from "../../../src/claude/ownership.js";

describe("OwnershipIndex.forgetRun", () => {
  it("drops the forgotten run's identifiers and keeps every other run's", () => {
    const owners = new OwnershipIndex();
    owners.recordMessage("m1", "r1");
    owners.recordToolUse("t1", "r1");
    owners.recordSend("s1", "r1");
    owners.recordMessage("m2", "r2");
    // The first owner wins: r2 naming r1's message does not make it r2's.
    owners.recordMessage("m1", "r2");
    owners.forgetRun("r1");
    expect(owners.runForMessage("m1")).toBeUndefined();
    expect(owners.runForToolUse("t1")).toBeUndefined();
    expect(owners.runForSend("s1")).toBeUndefined();
    expect(owners.runForMessage("m2")).toBe("r2");
    expect(owners.size).toBe(1);
  });

  it("keeps a send's uuid that a later run took over", () => {
    const owners = new OwnershipIndex();
    owners.recordSend("s1", "r1");
    owners.recordSend("s1", "r2");
    owners.forgetRun("r1");
    expect(owners.runForSend("s1")).toBe("r2");
    owners.forgetRun("r2");
    owners.forgetRun("r2");
    expect(owners.size).toBe(0);
  });
});
