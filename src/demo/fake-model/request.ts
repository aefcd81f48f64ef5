import type { ParsedRequest, ToolResultInfo } from "./types.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Flattens a content value (string or block array) into text; tool_result content included. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "tool_result") parts.push(contentText(block.content));
  }
  return parts.join("\n");
}

function toolResultsOf(content: unknown): ToolResultInfo[] {
  if (!Array.isArray(content)) return [];
  return content.filter(isObject).flatMap((block) =>
    block.type === "tool_result"
      ? [
          {
            toolUseId: typeof block.tool_use_id === "string" ? block.tool_use_id : "",
            content: contentText(block.content),
            isError: block.is_error === true,
          },
        ]
      : [],
  );
}

function firstSystemText(system: unknown): string {
  if (typeof system === "string") return system;
  if (Array.isArray(system)) {
    const first: unknown = system[0];
    if (isObject(first) && typeof first.text === "string") return first.text;
  }
  return "";
}

export function parseRequest(seq: number, path: string, body: Json): ParsedRequest {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  // A role:"system" entry may follow the last user message (unknown model ids), so search back.
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  return {
    seq,
    path,
    model: typeof body.model === "string" ? body.model : "",
    stream: body.stream === true,
    lastUserText: lastUser ? contentText(lastUser.content) : "",
    toolResults: lastUser ? toolResultsOf(lastUser.content) : [],
    isSubagent: firstSystemText(body.system).includes("cc_is_subagent=true"),
    toolNames: tools.flatMap((t) => (typeof t.name === "string" ? [t.name] : [])),
    body,
  };
}
