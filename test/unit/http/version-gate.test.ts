import { describe, expect, it } from "vitest";
import { versionRefusedMessage } from "../../../src/contract/versions.js";
import { methodVersionProblem, versionDecision } from "../../../src/http/version-gate.js";

describe("versionDecision", () => {
  const serve = (wire: string) => ({ kind: "serve", wire });
  const refuse = (header: string | undefined, compat: boolean) => ({
    kind: "refuse",
    message: versionRefusedMessage(header, compat),
  });

  it.each([
    // header, compat, decision
    ["1.0", false, serve("1.0")],
    ["1.0", true, serve("1.0")],
    [" 1.0 ", false, serve("1.0")],
    [undefined, true, serve("0.3")],
    ["", true, serve("0.3")],
    ["0.3", true, serve("0.3")],
    [undefined, false, refuse(undefined, false)],
    ["", false, refuse(undefined, false)],
    ["0.3", false, refuse("0.3", false)],
    ["1", false, refuse("1", false)],
    ["2.0", true, refuse("2.0", true)],
    ["0.3.0", true, refuse("0.3.0", true)],
  ])("A2A-Version %j, compat %s → %j", (header, compat, decision) => {
    expect(versionDecision(header, compat)).toEqual(decision);
  });
});

describe("versionRefusedMessage", () => {
  it("tells a header-less or v0.3 request how to send 1.0, and that server.compat.v03 exists", () => {
    for (const requested of [undefined, "0.3"]) {
      const message = versionRefusedMessage(requested, false);
      expect(message).toContain("`A2A-Version: 1.0`");
      expect(message).toContain("server.compat.v03");
    }
    expect(versionRefusedMessage(undefined, false)).toContain("has no A2A-Version header");
    expect(versionRefusedMessage("2.0", false)).toBe(
      "The requested A2A protocol version '2.0' is not supported. Supported versions: 1.0. " +
        "Send the header `A2A-Version: 1.0` with A2A 1.0 requests (methods such as " +
        "SendMessage) (server.compat.v03 adds 0.3).",
    );
    expect(versionRefusedMessage("2.0", true)).toContain("Supported versions: 1.0, 0.3.");
  });
});

describe("methodVersionProblem", () => {
  const header = { headerSent: false, compat: true };

  it.each([
    ["SendMessage", "0.3", /SendMessage is an A2A 1\.0 method.*its A2A 0\.3 name is message\/send/],
    ["ListTasks", "0.3", /ListTasks is an A2A 1\.0 method.*A2A 0\.3 has no such method/],
    ["message/send", "1.0", /message\/send is an A2A 0\.3 method.*Use SendMessage instead/],
    ["tasks/resubscribe", "1.0", /Use SubscribeToTask instead/],
  ] as const)("%s read as %s is refused", (method, wire, why) => {
    expect(methodVersionProblem(method, wire, header)).toMatch(why);
  });

  it.each([
    ["message/send", "0.3"],
    ["SendMessage", "1.0"],
    ["NoSuchMethod", "1.0"],
    ["no/such", "0.3"],
    [42, "0.3"],
  ] as const)("%s read as %s is left to the SDK", (method, wire) => {
    expect(methodVersionProblem(method, wire, header)).toBeUndefined();
  });

  it("says which header made the request v0.3", () => {
    const sent = methodVersionProblem("GetTask", "0.3", { headerSent: true, compat: true });
    expect(sent).toContain("this request says `A2A-Version: 0.3`");
    const absent = methodVersionProblem("GetTask", "0.3", { headerSent: false, compat: true });
    expect(absent).toContain("this request has no A2A-Version header");
    const off = methodVersionProblem("tasks/get", "1.0", { headerSent: true, compat: false });
    expect(off).toContain("only when server.compat.v03 is true");
  });
});
