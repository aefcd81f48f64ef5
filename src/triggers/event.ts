import { header, HMAC_HEADERS, type Headers, type VerifyKind } from "./verify.js";

/**
 * What the filters, the template and the conversation read of a delivery, per sender
 * (docs/triggers.md "Events"), from its headers and its parsed JSON payload. Pure.
 */
export interface TriggerEvent {
  /** The sender's id of this delivery: the same on its retries. */
  readonly deliveryId: string;
  /** `X-GitHub-Event`, `X-Gitlab-Event`, or the payload's `type` (hmac). */
  readonly type: string | undefined;
  readonly action: string | undefined;
  /** The label just added (GitHub `labeled`), else the labels of the issue or pull request. */
  readonly labels: readonly string[];
  /** The body of the comment the event is about, if it is about one. */
  readonly comment: string | undefined;
  /** GitHub's `author_association` of the comment, issue or pull request. */
  readonly authorAssociation: string | undefined;
  /** The issue, pull or merge request the event is about (`conversation: "subject"`). */
  readonly subject: string | undefined;
}

/** The header of the delivery id per kind. */
const DELIVERY_HEADER: Readonly<Record<VerifyKind, string>> = {
  github: "x-github-delivery",
  gitlab: "x-gitlab-event-uuid",
  hmac: HMAC_HEADERS.id,
};

/** Longest delivery id taken (a UUID is 36). */
const MAX_DELIVERY_CHARS = 128;

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const idOf = (v: unknown): string | undefined =>
  typeof v === "number" && Number.isSafeInteger(v) ? String(v) : str(v);

/** The names of an array of labels (`{name}` on GitHub, `{title}` on GitLab, strings elsewhere). */
function labelNames(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((l: unknown) => {
    const name = str(l) ?? str(obj(l)?.name) ?? str(obj(l)?.title);
    return name === undefined ? [] : [name];
  });
}

/** The event of a delivery, or why it cannot be one (no delivery id). Pure. */
export function readEvent(
  kind: VerifyKind,
  headers: Headers,
  payload: Json,
): { ok: true; event: TriggerEvent } | { ok: false; reason: string } {
  const deliveryId = header(headers, DELIVERY_HEADER[kind])?.trim();
  if (!deliveryId) return { ok: false, reason: `no ${DELIVERY_HEADER[kind]} header` };
  if (deliveryId.length > MAX_DELIVERY_CHARS) {
    return {
      ok: false,
      reason: `${DELIVERY_HEADER[kind]} is over ${MAX_DELIVERY_CHARS} characters`,
    };
  }
  const read = { github: githubEvent, gitlab: gitlabEvent, hmac: genericEvent }[kind];
  return { ok: true, event: { deliveryId, ...read(headers, payload) } };
}

type EventFields = Omit<TriggerEvent, "deliveryId">;

function githubEvent(headers: Headers, p: Json): EventFields {
  const issue = obj(p.issue);
  const pull = obj(p.pull_request);
  const comment = obj(p.comment);
  const action = str(p.action);
  const added = str(obj(p.label)?.name);
  const repo = str(obj(p.repository)?.full_name);
  const number = idOf(issue?.number) ?? idOf(pull?.number);
  return {
    type: header(headers, "x-github-event"),
    action,
    labels:
      action === "labeled" && added !== undefined
        ? [added]
        : labelNames(issue?.labels ?? pull?.labels),
    comment: str(comment?.body),
    authorAssociation:
      str(comment?.author_association) ??
      str(issue?.author_association) ??
      str(pull?.author_association),
    subject: repo && number ? `github:${repo}#${number}` : undefined,
  };
}

function gitlabEvent(headers: Headers, p: Json): EventFields {
  const attrs = obj(p.object_attributes);
  const kind = str(p.object_kind);
  const mergeRequest = obj(p.merge_request) ?? (kind === "merge_request" ? attrs : undefined);
  const issue = obj(p.issue) ?? (kind === "issue" ? attrs : undefined);
  const project = str(obj(p.project)?.path_with_namespace);
  const subject = mergeRequest
    ? idOf(mergeRequest.iid) && `!${idOf(mergeRequest.iid)}`
    : issue && idOf(issue.iid) && `#${idOf(issue.iid)}`;
  return {
    type: header(headers, "x-gitlab-event"),
    action: str(attrs?.action),
    labels: labelNames(p.labels),
    comment: kind === "note" ? str(attrs?.note) : undefined,
    authorAssociation: undefined,
    subject: project && subject ? `gitlab:${project}${subject}` : undefined,
  };
}

function genericEvent(_headers: Headers, p: Json): EventFields {
  return {
    type: str(p.type),
    action: str(p.action),
    labels: labelNames(p.labels),
    comment: str(p.comment) ?? str(obj(p.comment)?.body),
    authorAssociation: str(p.author_association),
    subject: str(p.subject),
  };
}
