import type { AgentCard, Artifact, Part, SendMessageRequest } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError } from "@a2a-js/sdk/errors";
import {
  essence,
  matchesAny,
  mediaTypeMatches,
  mediaTypeOfName,
  OCTET_STREAM,
} from "../../common/media-types.js";

/**
 * Input and output modes (A2A v1.0: the card's `defaultInputModes`/`defaultOutputModes`, a
 * skill's `inputModes`, and a request's `configuration.acceptedOutputModes`). Pure decisions.
 *
 * The input check is ours rather than `DefaultRequestHandler`'s `validateInputModes` option,
 * which (in @a2a-js/sdk 1.3) compares only against `defaultInputModes` (not the skills'
 * `inputModes`), by exact string (no `type/*`), and lets a part with no declared media type
 * through whatever it is (a file part with no `mediaType` is still a file).
 */

/** The answer of every task is text: a client must accept it. */
export const ANSWER_MEDIA_TYPE = "text/plain";

export interface ContentModes {
  /** What a message part may be: the card's default input modes and every skill's. */
  readonly input: readonly string[];
}

export function contentModesOf(
  card: Pick<AgentCard, "defaultInputModes" | "skills">,
): ContentModes {
  const input = new Set(card.defaultInputModes);
  for (const skill of card.skills) for (const mode of skill.inputModes) input.add(mode);
  return { input: [...input] };
}

/**
 * The media type a part is taken as: the declared one, else what its kind implies (text →
 * text/plain, data → application/json, a file → by its filename's extension, else
 * application/octet-stream). A url part with no declared type is a link, given to Claude as text.
 */
export function partMediaType(part: Part): string {
  if (part.mediaType) return part.mediaType;
  switch (part.content?.$case) {
    case "data":
      return "application/json";
    case "raw":
      return mediaTypeOfName(part.filename) ?? OCTET_STREAM;
    case "text":
    case "url":
    case undefined:
      return "text/plain";
  }
}

function accepts(part: Part, modes: readonly string[]): boolean {
  const type = partMediaType(part);
  if (matchesAny(type, modes)) return true;
  // A data part is JSON whatever its declared `+json` type (RFC 6839 structured syntax suffix).
  return (
    part.content?.$case === "data" && /\+json$/i.test(type) && matchesAny("application/json", modes)
  );
}

/** Why the message's parts cannot be taken, or undefined. */
export function inputModesRefusal(parts: readonly Part[], modes: ContentModes): string | undefined {
  const index = parts.findIndex((part) => !accepts(part, modes.input));
  if (index < 0) return undefined;
  const type = partMediaType(parts[index]!);
  return (
    `Message part ${index} has media type '${type}', which this agent does not accept. ` +
    `Accepted input modes: ${modes.input.join(", ")}.`
  );
}

/**
 * Why the request's `acceptedOutputModes` cannot be served, or undefined. Every task answers in
 * text (status messages, Claude's answer), so a client that excludes text/plain cannot be served;
 * an empty list accepts everything.
 */
export function outputModesRefusal(acceptedOutputModes: readonly string[]): string | undefined {
  if (acceptedOutputModes.length === 0 || matchesAny(ANSWER_MEDIA_TYPE, acceptedOutputModes)) {
    return undefined;
  }
  return (
    `acceptedOutputModes (${acceptedOutputModes.join(", ")}) excludes ${ANSWER_MEDIA_TYPE}: ` +
    `this agent always answers in ${ANSWER_MEDIA_TYPE} (with application/json data parts and ` +
    `file artifacts besides). Add ${ANSWER_MEDIA_TYPE} to acceptedOutputModes.`
  );
}

/**
 * Refuses a SendMessage whose parts or accepted output modes the agent cannot serve, with
 * ContentTypeNotSupported (-32005; HTTP 415 on the REST binding). Call it before the SDK opens
 * the task's event bus: nothing is stored, no task is created.
 */
export function checkContentModes(params: SendMessageRequest, modes: ContentModes): void {
  const why =
    inputModesRefusal(params.message?.parts ?? [], modes) ??
    outputModesRefusal(params.configuration?.acceptedOutputModes ?? []);
  if (why !== undefined) throw new ContentTypeNotSupportedError(why);
}

/**
 * Whether a file artifact may be sent to a client that accepts `acceptedOutputModes`: always when
 * the list is empty; otherwise only when a mode OTHER than text/plain covers the file's media type
 * (`text/markdown`, `text/*`, `image/png`, `*\/*`…). text/plain in the list means the client reads
 * text, the answer, not files: a text/plain-only client gets no file artifacts (the changed paths
 * are listed in the final text instead, see `unsentFilesNote`).
 */
export function acceptsFileArtifact(
  artifact: Pick<Artifact, "metadata" | "parts">,
  acceptedOutputModes: readonly string[],
): boolean {
  if (acceptedOutputModes.length === 0) return true;
  const type = fileArtifactMediaType(artifact);
  return acceptedOutputModes.some((mode) => !isPlainTextMode(mode) && mediaTypeMatches(type, mode));
}

const isPlainTextMode = (mode: string) => essence(mode) === ANSWER_MEDIA_TYPE;

function fileArtifactMediaType(artifact: Pick<Artifact, "metadata" | "parts">): string {
  const declared: unknown = artifact.metadata?.mediaType;
  if (typeof declared === "string" && declared !== "") return declared;
  return artifact.parts[0]?.mediaType || OCTET_STREAM;
}

/**
 * The text appended to the final answer when file artifacts were held back: one line per path,
 * in the order the files were first changed. Empty when there is none.
 */
export function unsentFilesNote(paths: readonly string[]): string {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return "";
  const lines = unique.map((p) => `- ${p}`).join("\n");
  return `\n\nFiles changed (not attached: acceptedOutputModes does not cover them):\n${lines}`;
}

/**
 * Which file artifacts of one task reach its client, and the paths of those that do not, for the
 * final answer. One per task, built from the request's `configuration.acceptedOutputModes`.
 */
export class FileDelivery {
  private readonly held: string[] = [];

  constructor(private readonly acceptedOutputModes: readonly string[]) {}

  /** Whether to publish this file artifact; when not, its path is kept for `finalText`. */
  admit(artifact: Pick<Artifact, "artifactId" | "metadata" | "parts">): boolean {
    if (acceptsFileArtifact(artifact, this.acceptedOutputModes)) return true;
    const path: unknown = artifact.metadata?.path;
    this.held.push(typeof path === "string" ? path : artifact.artifactId);
    return false;
  }

  /** Claude's final answer, with the held-back files listed after it. */
  finalText(text: string): string {
    const note = unsentFilesNote(this.held);
    return text === "" ? note.trimStart() : text + note;
  }
}
