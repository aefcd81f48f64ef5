/**
 * The scripted model's answers to the smoke prompts (test/smoke/scenarios.ts), so the smoke
 * suite runs offline: `npm run fake-model -- --script test/smoke/rules.ts`.
 */
import {
  reply,
  text,
  toolUse,
  type ParsedRequest,
  type Rule,
} from "../support/fake-model/index.js";
import { contentText } from "../support/fake-model/request.js";
import { COLOUR_QUESTION } from "../support/a2a/stream-view.js";
import { PROMPTS } from "./scenarios.js";

const count = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join("\n");
const PERMISSION_PATH = new RegExp(`${PROMPTS.permission} (\\S+) containing exactly: smoke`);

/** Every user message of the conversation: after a tool call the prompt is no longer the last. */
const conversation = (req: ParsedRequest) =>
  (req.body.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => contentText(m.content))
    .join("\n");
const permissionPath = (req: ParsedRequest) =>
  PERMISSION_PATH.exec(conversation(req))?.[1] ?? "/nonexistent";

const rules: Rule[] = [
  { name: "smoke:v1", match: { lastUserText: PROMPTS.v1 }, reply: reply(text("PONG")) },
  {
    name: "smoke:cancel",
    match: { lastUserText: PROMPTS.cancel },
    reply: reply(text(count(300)), { chunkSize: 6, chunkDelayMs: 30 }),
  },
  {
    name: "smoke:overlap",
    match: { lastUserText: PROMPTS.overlap },
    reply: reply(text(count(40)), { chunkSize: 6, chunkDelayMs: 15 }),
  },
  {
    name: "smoke:input ask",
    match: { lastUserText: PROMPTS.input, toolResult: false },
    reply: reply(
      toolUse("AskUserQuestion", {
        questions: [COLOUR_QUESTION],
      }),
    ),
  },
  {
    name: "smoke:input answered",
    match: { toolResult: /Your questions have been answered/ },
    reply: (req) => reply(text(/="blue"/.test(req.toolResults[0]?.content ?? "") ? "blue" : "red")),
  },
  {
    name: "smoke:permission write",
    match: { lastUserText: PERMISSION_PATH, toolResult: false },
    reply: (req) => reply(toolUse("Write", { file_path: permissionPath(req), content: "smoke\n" })),
  },
  {
    // Like a stubborn model: asks for the very same write again after the denial.
    name: "smoke:permission asks again",
    match: {
      toolResult: /The user denied this action/,
      when: (req) => PERMISSION_PATH.test(conversation(req)),
    },
    reply: (req) => reply(toolUse("Write", { file_path: permissionPath(req), content: "smoke\n" })),
  },
  {
    name: "smoke:permission written",
    match: { toolResult: /created successfully/ },
    reply: reply(text("Written.")),
  },
];

export default rules;
