import { afterEach, describe, expect, it } from "vitest";
import {
  FakeModel,
  parseRequest,
  pickRule,
  reply,
  text,
  toolUse,
  type Rule,
} from "../support/fake-model/index.js";
import { loadScript } from "../support/fake-model/script-file.js";

const userMsg = (content: unknown) => ({ role: "user", content });

describe("parseRequest", () => {
  it("takes the LAST user message, even when a system entry follows it", () => {
    const req = parseRequest(1, "/v1/messages", {
      model: "m",
      stream: true,
      messages: [
        userMsg("first"),
        { role: "assistant", content: "x" },
        userMsg([
          { type: "text", text: "<system-reminder>r</system-reminder>" },
          { type: "text", text: "second" },
        ]),
        { role: "system", content: "trailing" },
      ],
    });
    expect(req.lastUserText).toBe("<system-reminder>r</system-reminder>\nsecond");
    expect(req.stream).toBe(true);
  });

  it("flattens tool_result content and flags errors", () => {
    const req = parseRequest(2, "/v1/messages", {
      messages: [
        userMsg([
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "ok out" }] },
          { type: "tool_result", tool_use_id: "t2", content: "boom", is_error: true },
        ]),
      ],
    });
    expect(req.toolResults).toEqual([
      { toolUseId: "t1", content: "ok out", isError: false },
      { toolUseId: "t2", content: "boom", isError: true },
    ]);
    expect(req.lastUserText).toContain("ok out");
  });

  it("recognises a subagent call by its first system block", () => {
    const sub = parseRequest(3, "/v1/messages", {
      system: [{ type: "text", text: "x-anthropic-billing-header: cc_is_subagent=true;" }],
      messages: [],
    });
    const main = parseRequest(4, "/v1/messages", { system: "You are Claude Code", messages: [] });
    expect(sub.isSubagent).toBe(true);
    expect(main.isSubagent).toBe(false);
  });
});

describe("pickRule", () => {
  const req = parseRequest(1, "/v1/messages", { messages: [userMsg("please say hello")] });

  it("takes the first matching rule and honours times", () => {
    const once: Rule = {
      name: "once",
      match: { lastUserText: "hello" },
      reply: reply(text("a")),
      times: 1,
    };
    const always: Rule = {
      name: "always",
      match: { lastUserText: /say/ },
      reply: reply(text("b")),
    };
    const uses = new Map<Rule, number>();
    expect(pickRule([once, always], uses, req)?.rule.name).toBe("once");
    uses.set(once, 1);
    expect(pickRule([once, always], uses, req)?.rule.name).toBe("always");
  });

  it("requires every matcher field to hold", () => {
    const needsTool: Rule = {
      match: { lastUserText: "hello", toolResult: true },
      reply: reply(text("x")),
    };
    const subagentOnly: Rule = { match: { subagent: true }, reply: reply(text("x")) };
    const custom: Rule = { match: { when: (r) => r.seq === 99 }, reply: reply(text("x")) };
    expect(pickRule([needsTool, subagentOnly, custom], new Map(), req)).toBeUndefined();
  });
});

describe("loadScript", () => {
  it("turns /.../ strings into regular expressions", () => {
    const [rule] = loadScript({
      rules: [{ match: { lastUserText: "/hel+o/i" }, reply: { kind: "overloaded" }, times: 2 }],
    });
    expect(rule?.match.lastUserText).toEqual(/hel+o/i);
    expect(rule?.times).toBe(2);
  });

  it("names the offending field of an invalid script", () => {
    expect(() => loadScript({ rules: [{ match: {}, reply: { kind: "nope" } }] })).toThrow(
      /rules\[0\]\.reply/,
    );
  });
});

describe("FakeModel over HTTP", () => {
  let model: FakeModel | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  const post = (path: string, body: unknown) =>
    fetch(`${model!.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const sseEvents = (raw: string) =>
    raw
      .split("\n\n")
      .filter(Boolean)
      .map(
        (chunk) =>
          JSON.parse(chunk.split("\n")[1]!.slice("data: ".length)) as Record<string, unknown>,
      );

  it("streams a text and a tool_use reply as Messages API SSE, in chunks", async () => {
    model = await FakeModel.start({
      rules: [
        {
          match: {},
          reply: reply([text("hello world"), toolUse("Write", { a: 1 }, "toolu_x")], {
            chunkSize: 4,
          }),
        },
      ],
    });
    const res = await post("/v1/messages?beta=true", {
      model: "claude-sonnet-4-5",
      stream: true,
      messages: [userMsg("hi")],
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(await res.text());
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      ...Array<string>(3).fill("content_block_delta"), // "hell" "o wo" "rld"
      "content_block_stop",
      "content_block_start",
      ...Array<string>(2).fill("content_block_delta"), // '{"a"' ':1}'
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const texts = events.flatMap((e) => {
      const d = e.delta as { type?: string; text?: string } | undefined;
      return d?.type === "text_delta" ? [d.text] : [];
    });
    expect(texts.join("")).toBe("hello world");
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: "tool_use" } });
    expect(events[7]).toMatchObject({
      content_block: { type: "tool_use", id: "toolu_x", name: "Write" },
    });
    expect(model.unmatched).toEqual([]);
  });

  it("answers stream:false with JSON, count_tokens with a count, other paths with 404", async () => {
    model = await FakeModel.start({ rules: [{ match: {}, reply: reply(text("plain")) }] });
    const json = (await (
      await post("/v1/messages", { stream: false, messages: [userMsg("x")] })
    ).json()) as {
      content: unknown[];
      stop_reason: string;
    };
    expect(json.content).toEqual([{ type: "text", text: "plain" }]);
    expect(json.stop_reason).toBe("end_turn");
    const count = (await (await post("/v1/messages/count_tokens", { messages: [] })).json()) as {
      input_tokens: number;
    };
    expect(count.input_tokens).toBeGreaterThan(0);
    expect((await post("/v1/other", {})).status).toBe(404);
  });

  it("injects 529, 400 and a dropped stream", async () => {
    model = await FakeModel.start({
      rules: [
        { match: { lastUserText: "overload" }, reply: { kind: "overloaded" } },
        { match: { lastUserText: "bad" }, reply: { kind: "bad_request", message: "nope" } },
        {
          match: { lastUserText: "drop" },
          reply: { kind: "drop", reply: reply(text("abcdef"), { chunkSize: 1 }), afterEvents: 4 },
        },
      ],
    });
    const overloaded = await post("/v1/messages", {
      stream: true,
      messages: [userMsg("overload")],
    });
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({ error: { type: "overloaded_error" } });
    const bad = await post("/v1/messages", { stream: true, messages: [userMsg("bad")] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { type: "invalid_request_error", message: "nope" },
    });
    const dropped = await post("/v1/messages", { stream: true, messages: [userMsg("drop")] });
    expect(dropped.status).toBe(200);
    let received = "";
    const reader = dropped.body!.pipeThrough(new TextDecoderStream()).getReader();
    const readAll = async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) received += r.value;
    };
    await expect(readAll()).rejects.toThrow(/terminated/);
    expect(sseEvents(received).map((e) => e.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
    ]);
  });

  it("records unmatched requests, answers them with a fallback, and wakes waiters", async () => {
    model = await FakeModel.start({
      rules: [{ name: "only-hello", match: { lastUserText: "hello" }, reply: reply(text("hey")) }],
    });
    const waiting = model.waitForRequest((r) => r.lastUserText === "something else");
    const res = await post("/v1/messages", {
      stream: false,
      messages: [userMsg("something else")],
    });
    expect(res.status).toBe(200);
    expect((await waiting).seq).toBe(1);
    expect(model.unmatched.map((r) => r.lastUserText)).toEqual(["something else"]);
    expect(model.requests[0]?.rule).toBeUndefined();
    await expect(model.waitForRequest(() => false, { timeoutMs: 20 })).rejects.toThrow(
      /no matching request/,
    );
  });

  it("keeps only the latest `keep` requests and unmatched ones, still waking waiters", async () => {
    model = await FakeModel.start({ keep: 2 });
    const waiting = model.waitForRequest((r) => r.lastUserText === "r3");
    for (const t of ["r1", "r2", "r3"]) {
      expect((await post("/v1/messages", { messages: [userMsg(t)] })).status).toBe(200);
    }
    expect((await waiting).seq).toBe(3);
    expect(model.requests.map((r) => r.request.lastUserText)).toEqual(["r2", "r3"]);
    expect(model.unmatched.map((r) => r.lastUserText)).toEqual(["r2", "r3"]);
    expect(model.lastSeq).toBe(3);
    const none = await FakeModel.start({ keep: 0 });
    try {
      await fetch(`${none.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify({ messages: [userMsg("x")] }),
      });
      expect(none.requests).toEqual([]);
      expect(none.lastSeq).toBe(1);
    } finally {
      await none.close();
    }
  });

  it("lets a reply wait on the test (a gate), then answers", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    model = await FakeModel.start({
      rules: [{ match: {}, reply: async () => (await gate, reply(text("after gate"))) }],
    });
    const pending = post("/v1/messages", { stream: false, messages: [userMsg("x")] });
    await model.waitForRequest(() => true);
    open();
    expect(await (await pending).json()).toMatchObject({ content: [{ text: "after gate" }] });
  });
});
