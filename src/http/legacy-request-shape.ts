/**
 * The shape checks of request-shape.ts for A2A v0.3 requests (`server.compat.v03`), which have
 * their own message shapes: JSON-RPC's `{kind: "message", role: "user", parts: [{kind: "text",
 * text} | {kind: "file", file: {bytes | uri, name?, mimeType?}} | {kind: "data", data}]}`, and
 * the REST binding's ProtoJSON `{message: {role: "ROLE_USER", content: [{text} | {file:
 * {fileWithUri | fileWithBytes, mimeType?}} | {data: {data}}]}}`. The SDK's v0.3 translators
 * take an agent-role message, an empty parts list, a number for a text or bytes that are not
 * base64 as the v1.0 reader does; the same requests are refused here, with the same kinds of
 * message. Pure.
 */
import {
  bodyProblem,
  describe,
  envelopeProblem,
  field,
  isBase64,
  messageProblemWith,
  objectProblem,
  stringProblem,
  type ShapeProblem,
} from "./request-shape.js";
import { isRecord, type JsonObject } from "../common/json.js";

/** Exactly one of `keys` is set on `o`: its name, or what is wrong. */
function oneOf(
  o: JsonObject,
  keys: readonly (readonly [json: string, proto: string])[],
  name: string,
): { key: string; value: unknown } | { problem: string } {
  const present = keys.filter(([json, proto]) => (field(o, json, proto) ?? null) !== null);
  const first = present[0];
  if (present.length !== 1 || first === undefined) {
    const names = keys.map(([json]) => json).join(", ");
    const found = present.length === 0 ? "none" : present.map(([json]) => json).join(", ");
    return { problem: `${name} must have exactly one of ${names} (found ${found})` };
  }
  return { key: first[0], value: field(o, first[0], first[1]) };
}

function contentProblem(key: string, value: unknown, name: string): string | undefined {
  if (typeof value !== "string") return `${name}.${key} must be a string, not ${describe(value)}`;
  if (/bytes/i.test(key) && !isBase64(value)) return `${name}.${key} is not valid base64`;
  return undefined;
}

/** What is wrong with a v0.3 JSON-RPC `message.parts[index]`, or undefined. */
export function legacyPartProblem(part: unknown, index: number): string | undefined {
  const name = `message.parts[${index}]`;
  if (!isRecord(part)) return `${name} must be an object, not ${describe(part)}`;
  const metadata = objectProblem(part.metadata, `${name}.metadata`);
  switch (part.kind) {
    case "text":
      return stringProblem(part.text ?? null, `${name}.text`) ?? metadata;
    case "data":
      return isRecord(part.data)
        ? metadata
        : `${name}.data must be an object, not ${describe(part.data)}`;
    case "file": {
      if (!isRecord(part.file)) {
        return `${name}.file must be an object, not ${describe(part.file)}`;
      }
      const file = part.file;
      const content = oneOf(
        file,
        [
          ["bytes", "bytes"],
          ["uri", "uri"],
        ],
        `${name}.file`,
      );
      if ("problem" in content) return content.problem;
      return (
        contentProblem(content.key, content.value, `${name}.file`) ??
        stringProblem(file.name, `${name}.file.name`) ??
        stringProblem(file.mimeType, `${name}.file.mimeType`) ??
        metadata
      );
    }
    default:
      return `${name}.kind must be "text", "file" or "data" (got ${JSON.stringify(
        part.kind ?? null,
      ).slice(0, 40)})`;
  }
}

/** What is wrong with a v0.3 REST (ProtoJSON) `message.content[index]`, or undefined. */
export function legacyRestPartProblem(part: unknown, index: number): string | undefined {
  const name = `message.content[${index}]`;
  if (!isRecord(part)) return `${name} must be an object, not ${describe(part)}`;
  const which = oneOf(
    part,
    [
      ["text", "text"],
      ["file", "file"],
      ["data", "data"],
    ],
    name,
  );
  if ("problem" in which) return which.problem;
  const metadata = objectProblem(part.metadata, `${name}.metadata`);
  switch (which.key) {
    case "text":
      return stringProblem(which.value, `${name}.text`) ?? metadata;
    case "data": {
      const data = which.value;
      return isRecord(data) && isRecord(data.data)
        ? metadata
        : `${name}.data must be {"data": <object>}`;
    }
    default: {
      const file = which.value;
      if (!isRecord(file)) return `${name}.file must be an object, not ${describe(file)}`;
      const keys = [
        ["fileWithUri", "file_with_uri"],
        ["fileWithBytes", "file_with_bytes"],
      ] as const;
      const content = oneOf(file, keys, `${name}.file`);
      if ("problem" in content) return content.problem;
      return (
        contentProblem(content.key, content.value, `${name}.file`) ??
        stringProblem(field(file, "mimeType", "mime_type"), `${name}.file.mimeType`) ??
        metadata
      );
    }
  }
}

/** What is wrong with the message of a v0.3 JSON-RPC `message/send` or `message/stream`. */
export function legacyMessageProblem(message: unknown): string | undefined {
  return messageProblemWith(message, {
    userRoles: ["user"],
    roleName: '"user"',
    partsKey: "parts",
    part: legacyPartProblem,
  });
}

/** What is wrong with the message of a v0.3 REST `message:send` or `message:stream`. */
export function legacyRestMessageProblem(message: unknown): string | undefined {
  return messageProblemWith(message, {
    userRoles: ["ROLE_USER", 1],
    roleName: "ROLE_USER",
    partsKey: "content",
    part: legacyRestPartProblem,
  });
}

const LEGACY_MESSAGE_METHODS: readonly string[] = ["message/send", "message/stream"];

/** A v0.3 JSON-RPC body's problem: its envelope, its depth, then the message it carries. */
export function legacyJsonRpcBodyProblem(body: unknown): ShapeProblem | undefined {
  const envelope = envelopeProblem(body);
  if (envelope !== undefined) return { kind: "invalid_request", message: envelope };
  const { method, params } = body as JsonObject;
  const carried = () => legacyMessageProblem(isRecord(params) ? params.message : undefined);
  return bodyProblem(body, LEGACY_MESSAGE_METHODS.includes(method as string) ? carried : undefined);
}

/**
 * Whether a REST path (within the binding) is one of v0.3's: the SDK serves v0.3 under `/v1/…`
 * only, and a request read as v0.3 on another path goes to the v1.0 routes (checked as v1.0).
 */
export const isLegacyRestPath = (path: string): boolean => path.startsWith("/v1/");

/** A v0.3 REST body's problem (on a path `isLegacyRestPath` accepts). */
export function legacyRestBodyProblem(
  httpMethod: string,
  path: string,
  body: unknown,
): ShapeProblem | undefined {
  const carriesMessage = httpMethod === "POST" && /^\/v1\/message:(send|stream)$/.test(path);
  // ProtoJSON: the message is `message`, or `request` (its field name).
  const carried = () =>
    legacyRestMessageProblem(isRecord(body) ? (body.message ?? body.request) : undefined);
  return bodyProblem(body, carriesMessage ? carried : undefined);
}
