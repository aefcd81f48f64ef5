import { isRecord, type JsonObject } from "../common/json.js";

/**
 * The shape checks a request body passes before the SDK sees it. @a2a-js/sdk (1.3) turns JSON
 * into protocol objects leniently: a number where a string belongs is stringified, an object
 * becomes "[object Object]", bad base64 decodes to whatever bytes it yields, an agent-role
 * message is taken as the user's, a part with no content becomes a task that fails, and JSON
 * nested a few thousand levels deep overflows the stack ("Maximum call stack size exceeded" on
 * the wire). Each of these is refused here instead, before any task exists, with a message that
 * says what is wrong with the request and nothing about the server's internals. Pure.
 */

/** Deeper JSON than this is refused: far beyond any real message, far below the stack limit. */
export const MAX_JSON_DEPTH = 64;

export type ShapeProblem =
  /** The body is not a request at all (JSON-RPC -32600, REST 400). */
  | { readonly kind: "invalid_request"; readonly message: string }
  /** The request's parameters are wrong (JSON-RPC -32602, REST 400). */
  | { readonly kind: "invalid_params"; readonly message: string };

/** Whether `value` nests arrays and objects deeper than `max` levels (iterative: no recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

// Protobuf JSON takes standard and URL-safe base64, padded or not; nothing else is base64.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Whether `s` is base64 as protobuf JSON accepts it (a lone trailing character never is). */
export function isBase64(s: string): boolean {
  if (!BASE64.test(s)) return false;
  const unpadded = s.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return false;
  // Padding, when present, completes the last group of four.
  return s.length === unpadded.length || s.length % 4 === 0;
}

// The SDK's JSON reader accepts a field's protobuf name as well as its JSON name.
export const field = (o: JsonObject, json: string, proto: string): unknown => o[json] ?? o[proto];

export const describe = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;

export function stringProblem(v: unknown, name: string): string | undefined {
  return v === undefined || typeof v === "string"
    ? undefined
    : `${name} must be a string, not ${describe(v)}`;
}

export function stringArrayProblem(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) return `${name} must be an array of strings, not ${describe(v)}`;
  const bad = v.findIndex((x) => typeof x !== "string");
  return bad === -1 ? undefined : `${name}[${bad}] must be a string, not ${describe(v[bad])}`;
}

export function objectProblem(v: unknown, name: string): string | undefined {
  return v === undefined || isRecord(v)
    ? undefined
    : `${name} must be an object, not ${describe(v)}`;
}

const CONTENT_FIELDS = ["text", "raw", "url", "data"] as const;

/** What is wrong with `message.parts[index]`, or undefined. */
export function partProblem(part: unknown, index: number): string | undefined {
  const name = `message.parts[${index}]`;
  if (!isRecord(part)) return `${name} must be an object, not ${describe(part)}`;
  const present = CONTENT_FIELDS.filter((f) => part[f] !== undefined && part[f] !== null);
  if (present.length !== 1) {
    return `${name} must have exactly one of text, raw, url or data (found ${
      present.length === 0 ? "none" : present.join(", ")
    })`;
  }
  const content = present[0] as (typeof CONTENT_FIELDS)[number];
  if (content !== "data" && typeof part[content] !== "string") {
    return `${name}.${content} must be a string, not ${describe(part[content])}`;
  }
  if (content === "raw" && !isBase64(part.raw as string)) {
    return `${name}.raw is not valid base64`;
  }
  return (
    stringProblem(part.filename, `${name}.filename`) ??
    stringProblem(field(part, "mediaType", "media_type"), `${name}.mediaType`) ??
    objectProblem(part.metadata, `${name}.metadata`)
  );
}

// Protobuf JSON spells an enum by name or by number.
const USER_ROLES: readonly unknown[] = ["ROLE_USER", 1];

/**
 * The checks of a client's message, whatever the protocol version spells: role, id, the scalar
 * fields, then each part (v1.0 here, v0.3 in legacy-request-shape.ts).
 */
export function messageProblemWith(
  message: unknown,
  o: {
    readonly userRoles: readonly unknown[];
    readonly roleName: string;
    readonly partsKey: string;
    readonly part: (part: unknown, index: number) => string | undefined;
  },
): string | undefined {
  if (!isRecord(message)) return `message must be an object, not ${describe(message)}`;
  if (!o.userRoles.includes(message.role)) {
    return `message.role must be ${o.roleName}: a client sends user messages only (got ${JSON.stringify(
      message.role ?? null,
    ).slice(0, 40)})`;
  }
  const messageId = field(message, "messageId", "message_id");
  if (typeof messageId !== "string" || messageId === "") {
    return "message.messageId must be a non-empty string";
  }
  const scalar =
    stringProblem(field(message, "contextId", "context_id"), "message.contextId") ??
    stringProblem(field(message, "taskId", "task_id"), "message.taskId") ??
    stringArrayProblem(
      field(message, "referenceTaskIds", "reference_task_ids"),
      "message.referenceTaskIds",
    ) ??
    stringArrayProblem(message.extensions, "message.extensions") ??
    objectProblem(message.metadata, "message.metadata");
  if (scalar !== undefined) return scalar;
  const parts = message[o.partsKey];
  if (!Array.isArray(parts) || parts.length === 0) {
    return `message.${o.partsKey} must be a non-empty array of parts`;
  }
  for (const [index, part] of parts.entries()) {
    const problem = o.part(part, index);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** What is wrong with a message a client sends, or undefined. */
export function messageProblem(message: unknown): string | undefined {
  return messageProblemWith(message, {
    userRoles: USER_ROLES,
    roleName: "ROLE_USER",
    partsKey: "parts",
    part: partProblem,
  });
}

const MESSAGE_METHODS: readonly string[] = ["SendMessage", "SendStreamingMessage"];

/**
 * A body's problem: its depth, then what `messageCheck` (given when the body carries a message)
 * finds wrong with that message.
 */
export function bodyProblem(
  body: unknown,
  messageCheck: (() => string | undefined) | undefined,
): ShapeProblem | undefined {
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    return {
      kind: "invalid_request",
      message: `The request is nested deeper than ${MAX_JSON_DEPTH} levels.`,
    };
  }
  const problem = messageCheck?.();
  return problem === undefined ? undefined : { kind: "invalid_params", message: problem };
}

/**
 * What is wrong with a JSON-RPC 2.0 request object itself (§4), or undefined. The SDK answers
 * these as invalid params (-32602) and echoes an id of any type; JSON-RPC says -32600.
 */
export function envelopeProblem(body: unknown): string | undefined {
  if (!isRecord(body)) {
    return Array.isArray(body)
      ? "Batch requests are not supported: send one JSON-RPC request object."
      : "The body must be a JSON-RPC request object.";
  }
  if (body.jsonrpc !== "2.0") return 'Invalid Request: "jsonrpc" must be "2.0".';
  if (typeof body.method !== "string" || body.method === "") {
    return 'Invalid Request: "method" must be a non-empty string.';
  }
  const id = body.id;
  if ("id" in body && id !== null && typeof id !== "string" && !Number.isInteger(id)) {
    return 'Invalid Request: "id" must be a string, an integer or null.';
  }
  return undefined;
}

/** A JSON-RPC body's problem: its envelope, its depth, then the message it carries. */
export function jsonRpcBodyProblem(body: unknown): ShapeProblem | undefined {
  const envelope = envelopeProblem(body);
  if (envelope !== undefined) return { kind: "invalid_request", message: envelope };
  const { method, params } = body as JsonObject;
  const carried = () => messageProblem(isRecord(params) ? params.message : undefined);
  return bodyProblem(body, MESSAGE_METHODS.includes(method as string) ? carried : undefined);
}

/** A REST (HTTP+JSON) body's problem; `path` is the request path within the binding. */
export function restBodyProblem(
  httpMethod: string,
  path: string,
  body: unknown,
): ShapeProblem | undefined {
  const carriesMessage = httpMethod === "POST" && /\/message:(send|stream)$/.test(path);
  const carried = () => messageProblem(isRecord(body) ? body.message : undefined);
  return bodyProblem(body, carriesMessage ? carried : undefined);
}
