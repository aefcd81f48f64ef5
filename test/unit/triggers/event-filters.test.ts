import { describe, expect, it } from "vitest";
import type { TriggerFilters } from "../../../src/config/triggers-schema.js";
import { readEvent, type TriggerEvent } from "../../../src/triggers/event.js";
import { filterEvent, isPing } from "../../../src/triggers/filters.js";

const issue = {
  number: 42,
  title: "Widget",
  labels: [{ name: "bug" }, { name: "claude" }],
  author_association: "OWNER",
};
const repository = { full_name: "octo/widgets" };

describe("readEvent", () => {
  it("reads GitHub's headers and payload", () => {
    const read = readEvent(
      "github",
      { "x-github-delivery": "d-1", "x-github-event": "issues" },
      { action: "labeled", label: { name: "claude" }, issue, repository },
    );
    expect(read).toEqual({
      ok: true,
      event: {
        deliveryId: "d-1",
        type: "issues",
        action: "labeled",
        labels: ["claude"],
        comment: undefined,
        authorAssociation: "OWNER",
        subject: "github:octo/widgets#42",
      },
    });
  });

  it("reads a GitHub comment on a pull request", () => {
    const read = readEvent(
      "github",
      { "x-github-delivery": "d-2", "x-github-event": "issue_comment" },
      {
        action: "created",
        issue: { ...issue, number: 7, pull_request: {} },
        comment: { body: "/claude rebase", author_association: "MEMBER" },
        repository,
      },
    );
    expect(read.ok && read.event).toMatchObject({
      comment: "/claude rebase",
      authorAssociation: "MEMBER",
      labels: ["bug", "claude"],
      subject: "github:octo/widgets#7",
    });
  });

  it("reads GitLab's issue, note and merge request hooks", () => {
    const project = { path_with_namespace: "group/app" };
    const headers = { "x-gitlab-event-uuid": "u-1", "x-gitlab-event": "Note Hook" };
    const note = readEvent("gitlab", headers, {
      object_kind: "note",
      object_attributes: { note: "/claude look", action: "create" },
      merge_request: { iid: 3 },
      project,
    });
    expect(note.ok && note.event).toMatchObject({
      type: "Note Hook",
      comment: "/claude look",
      subject: "gitlab:group/app!3",
    });
    const opened = readEvent("gitlab", headers, {
      object_kind: "issue",
      object_attributes: { iid: 9, action: "open" },
      labels: [{ title: "claude" }],
      project,
    });
    expect(opened.ok && opened.event).toMatchObject({
      action: "open",
      labels: ["claude"],
      comment: undefined,
      subject: "gitlab:group/app#9",
    });
  });

  it("reads a generic payload's type, action, labels and subject", () => {
    const read = readEvent(
      "hmac",
      { "webhook-id": "msg_1" },
      { type: "alert", labels: ["disk"], subject: "host-7", comment: "/claude fix" },
    );
    expect(read.ok && read.event).toMatchObject({
      deliveryId: "msg_1",
      type: "alert",
      labels: ["disk"],
      subject: "host-7",
      comment: "/claude fix",
    });
  });

  it.each([
    ["github", {}],
    ["gitlab", { "x-gitlab-event-uuid": "   " }],
    ["hmac", { "webhook-id": "x".repeat(129) }],
  ] as const)("refuses a %s delivery without a usable id", (kind, headers) => {
    expect(readEvent(kind, headers, {}).ok).toBe(false);
  });
});

const event: TriggerEvent = {
  deliveryId: "d",
  type: "issue_comment",
  action: "created",
  labels: ["bug"],
  comment: "  /claude rebase this",
  authorAssociation: "MEMBER",
  subject: undefined,
};

describe("filterEvent", () => {
  it.each<[string, TriggerFilters | undefined, boolean]>([
    ["no filters", undefined, true],
    ["empty filters", {}, true],
    ["event type listed", { events: ["issues", "issue_comment"] }, true],
    ["event type not listed", { events: ["issues"] }, false],
    ["action listed", { actions: ["created"] }, true],
    ["action not listed", { actions: ["deleted"] }, false],
    ["a label listed", { labels: ["claude", "bug"] }, true],
    ["no label listed", { labels: ["claude"] }, false],
    ["comment prefix", { commentPrefix: "/claude" }, true],
    ["other prefix", { commentPrefix: "/bot" }, false],
    ["association listed", { authorAssociations: ["OWNER", "MEMBER"] }, true],
    ["association not listed", { authorAssociations: ["OWNER"] }, false],
    ["all pass", { events: ["issue_comment"], commentPrefix: "/claude", labels: ["bug"] }, true],
    ["one fails", { events: ["issue_comment"], commentPrefix: "/claude", labels: ["x"] }, false],
  ])("%s", (_name, filters, pass) => {
    expect(filterEvent(filters, event).pass).toBe(pass);
  });

  it("filters out an event without what a filter reads", () => {
    const bare: TriggerEvent = {
      ...event,
      type: undefined,
      comment: undefined,
      authorAssociation: undefined,
    };
    expect(filterEvent({ events: ["issues"] }, bare).pass).toBe(false);
    expect(filterEvent({ commentPrefix: "/claude" }, bare).pass).toBe(false);
    expect(filterEvent({ authorAssociations: ["OWNER"] }, bare).pass).toBe(false);
  });
});

describe("isPing", () => {
  it("is GitHub's ping only", () => {
    const ping = { ...event, type: "ping" };
    expect(isPing("github", ping)).toBe(true);
    expect(isPing("hmac", ping)).toBe(false);
    expect(isPing("github", event)).toBe(false);
  });
});
