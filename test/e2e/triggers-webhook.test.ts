/**
 * Webhook triggers (issue 51, docs/triggers.md): signed deliveries from GitHub, GitLab and a
 * Standard Webhooks sender start ordinary tasks on the real runtime, once each; wrong signatures,
 * stale timestamps, filtered events and bad bodies start nothing and log no payload.
 */
import { createHmac, randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DENIAL } from "../../src/contract/texts.js";
import { reply, sharedA2A, text, toolUse } from "../support/harness/index.js";

const SECRETS = {
  A2A_TEST_GITHUB_SECRET: "github-secret-value-1",
  A2A_TEST_GITLAB_SECRET: "gitlab-secret-value-2",
  A2A_TEST_HMAC_SECRET: "hmac-secret-value-3",
};
// Set before the server starts: it reads each trigger's secret from its variable then.
beforeAll(() => void Object.assign(process.env, SECRETS));
afterAll(() => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
});

/** What only a payload holds: no log line may carry it. */
const MARKER = "PAYLOAD-MARKER-7f3a";

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

const server = sharedA2A({
  logger: pino({ level: "info" }, logStream),
  config: {
    triggers: {
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: "A2A_TEST_GITHUB_SECRET",
        filters: { events: ["issues"], actions: ["labeled"], labels: ["claude"] },
        prompt: "Fix issue #{{issue.number}}: {{issue.title}}\n\n{{issue.body}}",
        allowUnsandboxed: true,
        maxBodyBytes: "16kb",
      },
      lab: {
        kind: "webhook",
        verify: "gitlab",
        secretEnv: "A2A_TEST_GITLAB_SECRET",
        filters: { events: ["Issue Hook"] },
        prompt: "GitLab issue {{object_attributes.iid}}: {{object_attributes.title}}",
        allowUnsandboxed: true,
      },
      alert: {
        kind: "webhook",
        verify: "hmac",
        secretEnv: "A2A_TEST_HMAC_SECRET",
        prompt: "Alert: {{summary}}",
        toleranceSeconds: 60,
        allowUnsandboxed: true,
      },
    },
  },
});

const post = (url: string, trigger: string, headers: Record<string, string>, body: string) =>
  fetch(`${url}/hooks/${trigger}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

function github(body: string, delivery: string, secret = SECRETS.A2A_TEST_GITHUB_SECRET) {
  const signature = createHmac("sha256", secret).update(body).digest("hex");
  return {
    "x-github-event": "issues",
    "x-github-delivery": delivery,
    "x-hub-signature-256": `sha256=${signature}`,
  };
}

/** An `issues` `labeled` delivery, in GitHub's documented shape. */
const labeled = (title: string, label = "claude") =>
  JSON.stringify({
    action: "labeled",
    issue: {
      number: 42,
      title,
      body: `The widget falls over. ${MARKER}`,
      state: "open",
      labels: [{ id: 1, name: label, color: "ededed" }],
      user: { login: "octocat", id: 1 },
      author_association: "OWNER",
    },
    label: { id: 1, name: label, color: "ededed" },
    repository: { id: 7, name: "widgets", full_name: "octo/widgets" },
    sender: { login: "octocat", id: 1 },
  });

async function firings(url: string, trigger: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split("\n")
    .find((l) =>
      l.startsWith(`claude_a2a_trigger_firings_total{trigger="${trigger}",outcome="${outcome}"`),
    );
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

async function storedTasks(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("claude_a2a_tasks{"))
    .reduce((n, l) => n + Number(l.split(" ").at(-1)), 0);
}

const noPayloadLogged = () => {
  const all = lines.join("");
  expect(all).not.toContain(MARKER);
  for (const secret of Object.values(SECRETS)) expect(all).not.toContain(secret);
};

describe("webhook triggers", () => {
  it("a signed GitHub issues/labeled delivery starts one task, and its retry none", async () => {
    const h = server([
      { match: { lastUserText: "Widget falls over" }, reply: reply(text("Fixed the widget.")) },
    ]);
    const body = labeled("Widget falls over");
    const delivery = randomUUID();
    const first = await post(h.server.url, "fix", github(body, delivery), body);
    expect(first.status).toBe(202);
    const started = (await first.json()) as { outcome: string; taskId: string; eventId: string };
    expect(started).toMatchObject({ outcome: "started", eventId: delivery });
    const request = await h.bench.model.waitForRequest((r) =>
      r.lastUserText.includes("Widget falls over"),
    );
    // The title, quoted as the payload's; the preamble says where it came from.
    expect(request.lastUserText).toContain(
      '<untrusted field="issue.title">Widget falls over</untrusted>',
    );
    expect(request.lastUserText).toContain('started by the webhook trigger "fix"');
    expect(request.lastUserText).toContain("Fix issue #42");

    const again = await post(h.server.url, "fix", github(body, delivery), body);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ outcome: "duplicate", taskId: started.taskId });
    expect(await firings(h.server.url, "fix", "started")).toBe(1);
    expect(await firings(h.server.url, "fix", "duplicate")).toBe(1);
    expect(lines.join("")).toContain(delivery);
    noPayloadLogged();
  });

  it("a wrong signature gets 401, a filtered-out event 202, and neither starts anything", async () => {
    const h = server();
    const before = await storedTasks(h.server.url);
    const body = labeled("Wrongly signed");
    const wrong = await post(h.server.url, "fix", github(body, randomUUID(), "not-it"), body);
    expect(wrong.status).toBe(401);
    const unsigned = await post(h.server.url, "fix", { "x-github-delivery": randomUUID() }, body);
    expect(unsigned.status).toBe(401);

    const other = labeled("Another label", "wontfix");
    const delivery = randomUUID();
    const filtered = await post(h.server.url, "fix", github(other, delivery), other);
    expect(filtered.status).toBe(202);
    expect(await filtered.json()).toMatchObject({ outcome: "filtered", eventId: delivery });
    expect(lines.some((l) => l.includes(delivery) && l.includes('"outcome":"filtered"'))).toBe(
      true,
    );
    expect(await storedTasks(h.server.url)).toBe(before);
    expect(h.bench.model.requests).toHaveLength(0);
    noPayloadLogged();
  });

  it("a GitLab delivery with its token starts a task; a wrong token gets 401", async () => {
    const h = server([
      { match: { lastUserText: "Gauge reads zero" }, reply: reply(text("Looked at the gauge.")) },
    ]);
    const body = JSON.stringify({
      object_kind: "issue",
      event_type: "issue",
      user: { username: "root" },
      project: { id: 1, path_with_namespace: "group/gauges" },
      object_attributes: { iid: 5, title: "Gauge reads zero", action: "open", state: "opened" },
      labels: [{ id: 1, title: "bug" }],
    });
    const headers = (token: string, uuid: string) => ({
      "x-gitlab-event": "Issue Hook",
      "x-gitlab-token": token,
      "x-gitlab-event-uuid": uuid,
    });
    const wrong = await post(h.server.url, "lab", headers("nope", randomUUID()), body);
    expect(wrong.status).toBe(401);
    const uuid = randomUUID();
    const ok = await post(h.server.url, "lab", headers(SECRETS.A2A_TEST_GITLAB_SECRET, uuid), body);
    expect(ok.status).toBe(202);
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("Gauge reads zero"));
    const again = await post(
      h.server.url,
      "lab",
      headers(SECRETS.A2A_TEST_GITLAB_SECRET, uuid),
      body,
    );
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
    expect(await firings(h.server.url, "lab", "started")).toBe(1);
  });

  it("a Standard Webhooks delivery starts a task; a stale timestamp gets 401", async () => {
    const h = server([
      { match: { lastUserText: "Disk almost full" }, reply: reply(text("Cleaned up.")) },
    ]);
    const body = JSON.stringify({ type: "alert", summary: "Disk almost full" });
    const signed = (id: string, seconds: number) => {
      const signature = createHmac("sha256", SECRETS.A2A_TEST_HMAC_SECRET)
        .update(`${id}.${seconds}.${body}`)
        .digest("base64");
      return {
        "webhook-id": id,
        "webhook-timestamp": String(seconds),
        "webhook-signature": `v1,${signature}`,
      };
    };
    const now = Math.floor(Date.now() / 1000);
    const before = await storedTasks(h.server.url);
    const stale = await post(h.server.url, "alert", signed(randomUUID(), now - 3600), body);
    expect(stale.status).toBe(401);
    expect(await storedTasks(h.server.url)).toBe(before);
    const id = randomUUID();
    const ok = await post(h.server.url, "alert", signed(id, now), body);
    expect(ok.status).toBe(202);
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("Disk almost full"));
    const again = await post(h.server.url, "alert", signed(id, now), body);
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
  });

  it("oversized (413), malformed (400) and unknown-trigger (404) deliveries create nothing and log no payload", async () => {
    const h = server();
    const before = await storedTasks(h.server.url);
    const big = labeled(`Huge ${"x".repeat(20_000)}`);
    const tooLarge = await post(h.server.url, "fix", github(big, randomUUID()), big);
    expect(tooLarge.status).toBe(413);
    const broken = `{"action": "labeled", "issue": {"title": "${MARKER}"`;
    const malformed = await post(h.server.url, "fix", github(broken, randomUUID()), broken);
    expect(malformed.status).toBe(400);
    const body = labeled("Nobody home");
    const unknown = await post(h.server.url, "nope", github(body, randomUUID()), body);
    expect(unknown.status).toBe(404);
    expect(await storedTasks(h.server.url)).toBe(before);
    expect(h.bench.model.requests).toHaveLength(0);
    noPayloadLogged();
  });

  it("a permission prompt of a trigger's task is denied at once (no human there)", async () => {
    const h = server();
    const outside = join(h.bench.sandbox.root, "outside-trigger");
    await mkdir(outside, { recursive: true });
    const note = join(outside, "note.txt");
    await writeFile(note, "private\n");
    h.bench.model.setRules([
      {
        match: { lastUserText: "Read the private note", toolResult: false },
        reply: reply(toolUse("Read", { file_path: note })),
      },
      { match: { toolResult: true }, reply: reply(text("Could not read it.")) },
    ]);
    const body = labeled("Read the private note");
    const answer = await post(h.server.url, "fix", github(body, randomUUID()), body);
    expect(answer.status).toBe(202);
    const denied = await h.bench.model.waitForRequest((r) =>
      r.toolResults.some((t) => t.content.includes(DENIAL.promptsOff)),
    );
    expect(denied).toBeDefined();
    expect(h.permissionRequests.map((p) => p.toolName)).toContain("Read");
  });
});
