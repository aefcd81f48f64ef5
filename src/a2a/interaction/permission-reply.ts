/**
 * How a free-text reply to a permission request is read. A privilege is granted explicitly or
 * not at all: a reply grants only when it says yes and nothing in it negates, hedges or asks.
 * Reading a "no" as a "yes" lets Claude act where the user refused; reading a "yes" as a "no"
 * only costs a retry. Every list below therefore errs towards denying.
 */

export type Decision = { decision: "allow" } | { decision: "deny"; reason: string | undefined };

/** Why a reply reads as it does (docs/protocol.md's decision table, one row per kind). */
export type ReplyReading =
  | "allow" // a yes word, and nothing below
  | "refusal" // a no, a negation (not, n't, pas, ne, jamais…) or a refusing verb
  | "hedge" // maybe, wait, hold on, later, peut-être, if, but…
  | "question" // the reply asks something back ("are you sure?")
  | "unclear"; // empty, longer than MAX_WORDS, or no yes word at all

export const MAX_WORDS = 8;

export const NOT_CLEAR_REASON = "the reply was not a clear yes or no";

const ALLOW_WORDS = new Set([
  "yes",
  "y",
  "oui",
  "ok",
  "okay",
  "sure",
  "allow",
  "go",
  "vas-y",
  "d'accord",
  "autorise",
]);

/**
 * The words people use to approve a plan, which say nothing about any other request: "approve"
 * answers a plan, not whether Claude may run a command, so they grant no permission (a reply
 * there is read with `ALLOW_WORDS` alone and, without one, denied as unclear).
 */
const PLAN_APPROVAL_WORDS = new Set([
  "approve",
  "approved",
  "approves",
  "approving",
  "lgtm",
  "accept",
  "accepted",
  "approuve",
  "approuvé",
  "validé",
]);

/** Negations and refusals, English and French first, then a few common others. */
const REFUSAL_WORDS = new Set([
  // English
  "no",
  "nope",
  "nah",
  "nay",
  "not",
  "never",
  "nor",
  "neither",
  "none",
  "nothing",
  "nobody",
  "nowhere",
  "deny",
  "denied",
  "refuse",
  "refused",
  "reject",
  "disallow",
  "forbid",
  "stop",
  "cancel",
  "abort",
  // contractions typed without the apostrophe ("n't" forms are caught by their ending)
  "dont",
  "doesnt",
  "didnt",
  "cant",
  "cannot",
  "wont",
  "shouldnt",
  "wouldnt",
  "couldnt",
  "mustnt",
  "isnt",
  "arent",
  "wasnt",
  "werent",
  "aint",
  "havent",
  "hasnt",
  "hadnt",
  "neednt",
  // French
  "non",
  "ne",
  "pas",
  "jamais",
  "rien",
  "aucun",
  "aucune",
  "ni",
  "nul",
  "nulle",
  "refusé",
  "refuser",
  "interdit",
  "annule",
  "annuler",
  "arrête",
  "arrete",
  // German, Spanish
  "nein",
  "nicht",
  "kein",
  "keine",
  "niemals",
  "nunca",
  "nada",
]);

/** Words that leave the decision open or put a condition on it. */
const HEDGE_WORDS = new Set([
  // English
  "maybe",
  "perhaps",
  "possibly",
  "probably",
  "unsure",
  "uncertain",
  "idk",
  "dunno",
  "wait",
  "hold",
  "hang",
  "moment",
  "later",
  "guess",
  "suppose",
  "think",
  "if",
  "unless",
  "but",
  "except",
  "um",
  "umm",
  "uh",
  "er",
  // French
  "peut-être",
  "peut-etre",
  "peutêtre",
  "peutetre",
  "attends",
  "attendez",
  "attendre",
  "tard",
  "hésite",
  "hesite",
  "bof",
  "euh",
  "mais",
  "sauf",
  "si",
  // German, Spanish
  "vielleicht",
  "quizás",
  "quizas",
]);

/** Negated certainty is doubt, not a reasoned refusal: "not sure", "pas sûr", "don't know". */
const HEDGE_PHRASES = new Set([
  "not sure",
  "not certain",
  "not yet",
  "not now",
  "don't know",
  "dont know",
  "no idea",
  "pas sûr",
  "pas sûre",
  "pas sur",
  "pas certain",
  "pas encore",
  "pas maintenant",
  "sais pas",
]);

/** Apostrophe look-alikes a keyboard or phone may produce for `'`. */
const APOSTROPHES = /[\u2018\u2019\u201B\u02BC\u02B9\u00B4\u0060\u2032\uFF07]/g;
/** Hyphens that join a word (peut‐être with U+2010 or U+2011); dashes between words split. */
const JOINING_HYPHENS = /[\u2010\u2011]/g;
const QUESTION_MARKS = /[?\u00BF\uFF1F\u061F]/;
const HMM = /^h+m+$/;

/** Lowercased words; `'` and `-` kept inside a word, any other punctuation separates. */
export function words(reply: string): string[] {
  return reply
    .normalize("NFC")
    .toLowerCase()
    .replace(APOSTROPHES, "'")
    .replace(JOINING_HYPHENS, "-")
    .split(/[^\p{L}\p{M}\p{N}'-]+/u)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ""))
    .filter((w) => w !== "");
}

const isRefusal = (w: string) =>
  REFUSAL_WORDS.has(w) ||
  w.endsWith("n't") || // don't, can't, won't, isn't…
  (w.startsWith("n'") && w.length > 2); // French elided "ne": n'est, n'y, n'importe…

const isHedge = (w: string) => HEDGE_WORDS.has(w) || HMM.test(w);

const hasHedgePhrase = (ws: string[]) =>
  ws.some((w, i) => i > 0 && HEDGE_PHRASES.has(`${ws[i - 1]} ${w}`));

/**
 * The pure reading of a reply; `decideFreeText` turns it into a decision. `yes` is the set of
 * words that say yes here (a plan's reply adds its approval words).
 */
export function readReply(reply: string, yes: ReadonlySet<string> = ALLOW_WORDS): ReplyReading {
  if (QUESTION_MARKS.test(reply)) return "question";
  const ws = words(reply);
  if (ws.length === 0 || ws.length > MAX_WORDS) return "unclear";
  // A hedge outranks a negation: "not sure" is undecided, not a reasoned no.
  if (ws.some(isHedge) || hasHedgePhrase(ws)) return "hedge";
  if (ws.some(isRefusal)) return "refusal";
  if (ws.some((w) => yes.has(w))) return "allow";
  return "unclear";
}

/**
 * docs/protocol.md's decision table for a free-text reply to a permission request. Anything but a
 * plain yes denies; an undecided reply is denied with a reason that says so instead of echoing
 * the reply back to Claude, a reasoned refusal ("no, use the temp dir") is passed on.
 */
export function decideFreeText(reply: string): Decision {
  const reading = readReply(reply);
  switch (reading) {
    case "allow":
      return { decision: "allow" };
    case "refusal":
      // A bare "no" says nothing more; "no, use the temp dir" tells Claude what to do instead.
      return { decision: "deny", reason: words(reply).length > 1 ? reply.trim() : undefined };
    case "hedge":
    case "question":
    case "unclear":
      return { decision: "deny", reason: NOT_CLEAR_REASON };
  }
}

const PLAN_YES: ReadonlySet<string> = new Set([...ALLOW_WORDS, ...PLAN_APPROVAL_WORDS]);

/**
 * A free-text reply to a plan (`plan_approval`): a clear yes approves, as for a permission, and
 * so does a plan's own word for it ("approve", "approved", "LGTM") under the same rules: nothing
 * negating, hedging or asking beside it ("not approved" and "lgtm?" do not);
 * anything else rejects it, and the whole reply is Claude's feedback, so "also add a README"
 * makes Claude revise the plan with it (a bare "no" carries none). Pure.
 */
export function decidePlanReply(reply: string): Decision {
  if (readReply(reply, PLAN_YES) === "allow") return { decision: "allow" };
  const text = reply.trim();
  return { decision: "deny", reason: words(text).length > 1 ? text : undefined };
}
