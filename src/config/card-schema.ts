import { z } from "zod";
import { DEFAULT_INPUT_MODES, DEFAULT_OUTPUT_MODES } from "../common/media-types.js";
import { httpUrl, mediaTypes, name, names, text } from "./schema-parts.js";
import { signingSchema } from "./security-schema.js";

/** The `agentCard` section of the config: what the agent card says about this agent. */
const skillSchema = z.strictObject({
  id: name().describe("Unique identifier of the skill."),
  name: name().describe("Human-readable name of the skill."),
  description: text().describe("What the skill does."),
  tags: names().default([]).describe("Keywords describing the skill."),
  examples: z.array(text()).optional().describe("Example prompts the skill handles."),
  inputModes: mediaTypes()
    .optional()
    .describe("Input media types of this skill; accepted in messages besides the defaults."),
  outputModes: mediaTypes()
    .optional()
    .describe("Output media types of this skill, overriding the agent's defaults."),
});

const DEFAULT_SKILL = {
  id: "claude-code",
  name: "Claude Code",
  description:
    "Reads, edits and creates files and runs commands in its working directory to carry out " +
    "software engineering tasks.",
  tags: ["coding", "files", "shell"],
};

export const agentCardSchema = z.strictObject({
  name: name().default("Claude Code").describe("Agent name shown to clients."),
  description: text()
    .default("A Claude Code agent working in one directory, exposed over the A2A protocol.")
    .describe("What the agent is for."),
  version: name().optional().describe("Agent version. Default: the claude-a2a package version."),
  provider: z
    .strictObject({
      organization: name().describe("Name of the organization."),
      url: httpUrl().describe("URL of the organization."),
    })
    .optional()
    .describe("Organization providing the agent."),
  documentationUrl: httpUrl().optional().describe("URL of the agent's documentation."),
  iconUrl: httpUrl().optional().describe("URL of an icon for the agent."),
  capabilities: z
    .strictObject({
      streaming: z
        .boolean({ error: "expected true or false" })
        .default(true)
        .describe("Advertise (and serve) SendStreamingMessage and SubscribeToTask."),
      pushNotifications: z
        .boolean({ error: "expected true or false" })
        .default(true)
        .describe(
          "Advertise (and serve) push-notification webhooks: every status and artifact update " +
            "of a task is POSTed to the webhooks registered for it.",
        ),
    })
    .prefault({}),
  defaultInputModes: mediaTypes()
    .min(1, { error: "expected at least one media type" })
    .default([...DEFAULT_INPUT_MODES])
    .describe(
      "Media types accepted in message parts; a part of another type is refused " +
        '(ContentTypeNotSupported). Narrow it (["text/plain"]) or widen it (type/* ' +
        "allowed; accepted files go to the inbox). Default: text, JSON data, images and " +
        "documents Claude reads.",
    ),
  defaultOutputModes: mediaTypes()
    .default([...DEFAULT_OUTPUT_MODES])
    .describe(
      "Media types the agent produces (listed in the card). Default: text/plain, " +
        "application/json and the types of the files Claude writes (by extension).",
    ),
  skills: z
    .array(skillSchema, { error: "expected an array of skills" })
    .default([DEFAULT_SKILL])
    .describe(
      "Skills listed in the agent card; [] lists none. A skill's inputModes are accepted in " +
        "messages too. Default: one claude-code skill.",
    ),
  signing: signingSchema
    .optional()
    .describe(
      "Sign the public and the extended card (JWS, A2A v1.0 §8.4) with this key. Unset: unsigned.",
    ),
});
