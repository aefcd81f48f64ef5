import type { AgentCard } from "@a2a-js/sdk";
import { CONTROL_EXTENSION_URI } from "./control.js";
import { WORKSPACE_EXTENSION_URI } from "./extended-card.js";
import { EVENTS_EXTENSION_URI } from "./extension.js";
import { GENERATIONS_EXTENSION_URI } from "./generations.js";
import { TASK_OPTIONS_EXTENSION_URI } from "./task-options.js";

/** The card that may list an extension: the public one (and so the extended one), or only the extended. */
export type ExtensionCard = "public" | "extended";

/**
 * When the server confirms an extension to a request (the `A2A-Extensions` response header):
 * - `requested`: whenever the request lists it (it changes nothing but the confirmation);
 * - `used`: when the request lists it and uses it (the request handler confirms it then);
 * - `declared`: never; the card only declares what the server does.
 */
export type ExtensionActivation = "requested" | "used" | "declared";

export interface ExtensionEntry {
  readonly uri: string;
  readonly card: ExtensionCard;
  readonly activation: ExtensionActivation;
}

/**
 * Every A2A extension this server declares, in the order the cards list them: the one place an
 * extension is added (docs/ARCHITECTURE.md "Where to add"). Its URI, parameters and card entry
 * live in its own file of src/contract/; the card builders refuse an entry that is not here
 * (`assertDeclared`), and the bindings confirm the `requested` ones (`activatedExtensions`).
 */
export const EXTENSIONS = [
  { uri: EVENTS_EXTENSION_URI, card: "public", activation: "requested" },
  { uri: CONTROL_EXTENSION_URI, card: "public", activation: "used" },
  { uri: GENERATIONS_EXTENSION_URI, card: "public", activation: "used" },
  { uri: TASK_OPTIONS_EXTENSION_URI, card: "public", activation: "declared" },
  { uri: WORKSPACE_EXTENSION_URI, card: "extended", activation: "declared" },
] as const satisfies readonly ExtensionEntry[];

/** The extensions of `requested` the server confirms whatever the request does (see above). Pure. */
export function activatedExtensions(requested: readonly string[] | undefined): string[] {
  const confirmed = new Set<string>(
    EXTENSIONS.filter((e) => e.activation === "requested").map((e) => e.uri),
  );
  return (requested ?? []).filter((uri) => confirmed.has(uri));
}

/** The URIs `card` may list: the public ones, and on the extended card the extended ones too. Pure. */
export const declaredFor = (card: ExtensionCard): string[] =>
  EXTENSIONS.filter((e) => card === "extended" || e.card === "public").map((e) => e.uri);

/**
 * `built` unchanged when every extension it lists is declared in EXTENSIONS for that card, in
 * EXTENSIONS' order; throws otherwise, so an extension added anywhere else fails at startup (and
 * in the card tests) until it is listed here. Pure.
 */
export function assertDeclared(built: AgentCard, card: ExtensionCard): AgentCard {
  const declared = declaredFor(card);
  const listed = built.capabilities?.extensions.map((x) => x.uri) ?? [];
  const stray = listed.filter((uri) => !declared.includes(uri));
  if (stray.length > 0) {
    throw new Error(`the ${card} card lists extensions not in EXTENSIONS: ${stray.join(", ")}`);
  }
  const order = listed.map((uri) => declared.indexOf(uri));
  if (order.some((at, i) => i > 0 && at < (order[i - 1] ?? -1))) {
    throw new Error(`the ${card} card lists its extensions out of EXTENSIONS' order`);
  }
  return built;
}
