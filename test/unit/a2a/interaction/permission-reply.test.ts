import { describe, expect, it } from "vitest";
import { parseAnswer, type InputRequest } from "../../../../src/a2a/interaction/answers.js";
import {
  decideFreeText,
  NOT_CLEAR_REASON,
  readReply,
  words,
  type ReplyReading,
} from "../../../../src/a2a/interaction/permission-reply.js";
import { textPart as text } from "../../../../src/contract/messages.js";

/** Every row of docs/protocol.md's table, the phrases, and the traps around them. */
const TABLE: [reply: string, reading: ReplyReading][] = [
  // allow: a yes word and nothing that negates, hedges or asks
  ["Yes.", "allow"],
  ["ok go ahead", "allow"],
  ["oui, vas-y", "allow"],
  ["Sure!", "allow"],
  ["y", "allow"],
  ["d'accord", "allow"],
  ["d’accord", "allow"], // curly apostrophe
  ["OK, autorise", "allow"],
  ["vas‑y", "allow"], // non-breaking hyphen U+2011
  ["yes yes yes yes yes yes yes yes", "allow"], // 8 words: still read
  // refusal: a no, a negation, a refusing verb
  ["no", "refusal"],
  ["Nope.", "refusal"],
  ["non, jamais", "refusal"],
  ["stop", "refusal"],
  ["annule", "refusal"],
  ["yes and no", "refusal"],
  ["don't go", "refusal"],
  ["don’t go", "refusal"],
  ["don‘t go", "refusal"],
  ["donʼt go", "refusal"], // U+02BC
  ["don`t go", "refusal"],
  ["dont go", "refusal"],
  ["do not go", "refusal"],
  ["pas d'accord", "refusal"],
  ["pas d’accord", "refusal"],
  ["never", "refusal"],
  ["sure, never", "refusal"],
  ["ok, not that", "refusal"],
  ["you can't", "refusal"],
  ["you shouldn't, go elsewhere", "refusal"],
  ["yes, nothing outside", "refusal"],
  ["nah", "refusal"],
  ["deny", "refusal"],
  ["ne fais pas ça", "refusal"],
  ["je ne veux pas", "refusal"],
  ["n'y va pas", "refusal"],
  ["n’autorise rien", "refusal"],
  ["non merci", "refusal"],
  ["jamais de la vie", "refusal"],
  ["aucun accès", "refusal"],
  ["ok, ni l'un ni l'autre", "refusal"],
  ["oui, enfin non", "refusal"],
  ["NON", "refusal"],
  ["yes,no", "refusal"], // punctuation without a space still separates words
  ["nein", "refusal"],
  // hedge: undecided or conditional
  ["not sure", "hedge"],
  ["I'm not sure", "hedge"],
  ["pas sûr", "hedge"],
  ["je sais pas", "hedge"],
  ["I don't know", "hedge"],
  ["not yet", "hedge"],
  ["maybe", "hedge"],
  ["maybe later", "hedge"],
  ["yes maybe", "hedge"],
  ["ok, wait", "hedge"],
  ["wait", "hedge"],
  ["hold on", "hedge"],
  ["yes, hold on", "hedge"],
  ["peut-être", "hedge"],
  ["Peut-Être", "hedge"],
  ["peut‐être", "hedge"], // hyphen U+2010
  ["peut-etre", "hedge"],
  ["oui peut-être", "hedge"],
  ["perhaps", "hedge"],
  ["later", "hedge"],
  ["plus tard", "hedge"],
  ["unsure", "hedge"],
  ["idk", "hedge"],
  ["dunno", "hedge"],
  ["hmm", "hedge"],
  ["hmmm ok", "hedge"],
  ["ok I guess", "hedge"],
  ["yes I think", "hedge"],
  ["yes if it is safe", "hedge"],
  ["go, but only in /tmp", "hedge"],
  ["yes unless it deletes", "hedge"],
  ["attends", "hedge"],
  ["oui, sauf le dossier build", "hedge"],
  ["bof", "hedge"],
  ["euh oui", "hedge"],
  ["ok but no", "hedge"],
  ["oui mais non", "hedge"],
  ["yes but no", "hedge"],
  ["vielleicht", "hedge"],
  // question: the reply asks something back
  ["are you sure?", "question"],
  ["yes?", "question"],
  ["ok?", "question"],
  ["why?", "question"],
  ["d'accord ?", "question"],
  ["¿sí", "question"],
  ["はい？", "question"], // full-width question mark
  // unclear: no yes word, nothing at all, or too long to be a clear yes
  ["", "unclear"],
  ["   ", "unclear"],
  ["...", "unclear"],
  ["vas", "unclear"], // "vas-y" is one word, "vas" is not an allow word
  ["going", "unclear"], // whole words only
  ["yesss", "unclear"],
  ["sounds good to me", "unclear"],
  ["yes yes yes yes yes yes yes yes yes", "unclear"], // 9 words
  // a plan's approval words approve a plan only: to a permission request they are no clear yes
  ["approve", "unclear"],
  ["approved", "unclear"],
  ["LGTM", "unclear"],
];

describe("free-text permission replies (docs/protocol.md's decision table)", () => {
  it.each(TABLE)("%j reads as %s", (reply, reading) => {
    expect(readReply(reply)).toBe(reading);
  });

  it.each(TABLE)("%j is granted only when it reads as allow", (reply, reading) => {
    expect(decideFreeText(reply).decision).toBe(reading === "allow" ? "allow" : "deny");
  });

  it("denies an undecided, questioning or long reply with a reason saying so, not the user's words", () => {
    for (const reply of [
      "not sure",
      "maybe later",
      "are you sure?",
      "one two three four five six seven eight nine",
    ]) {
      expect(decideFreeText(reply)).toEqual({ decision: "deny", reason: NOT_CLEAR_REASON });
    }
  });

  it("passes a refusal with more to say on to Claude, a bare no without reason", () => {
    expect(decideFreeText("no")).toEqual({ decision: "deny", reason: undefined });
    expect(decideFreeText("no, use the temp dir")).toEqual({
      decision: "deny",
      reason: "no, use the temp dir",
    });
    expect(decideFreeText(" pas d'accord ")).toEqual({ decision: "deny", reason: "pas d'accord" });
  });
});

describe("words", () => {
  it("lowercases, keeps - and ' inside a word, and splits on any other punctuation", () => {
    expect(words("  Oui, VAS-Y!  (d'accord) ")).toEqual(["oui", "vas-y", "d'accord"]);
    expect(words("‘Yes’")).toEqual(["yes"]);
    expect(words("yes,no/maybe")).toEqual(["yes", "no", "maybe"]);
  });

  it("reads every apostrophe look-alike as ' and a decomposed accent as its letter", () => {
    for (const a of ["'", "’", "‘", "ʼ", "´", "`", "′", "＇"]) {
      expect(words(`don${a}t`)).toEqual(["don't"]);
    }
    expect(words("peut-e\u0302tre")).toEqual(["peut-être"]);
  });
});

describe("a free-text answer to a permission prompt", () => {
  const permission: InputRequest = {
    kind: "permission",
    toolName: "Write",
    input: { file_path: "/tmp/outside/report.txt", content: "x" },
    title: undefined,
    decisionReason: undefined,
  };

  it("goes through the same table (the parts of a message are joined first)", () => {
    expect(parseAnswer(permission, { parts: [text("not sure")] })).toEqual({
      kind: "permission",
      decision: { decision: "deny", reason: NOT_CLEAR_REASON },
    });
    expect(parseAnswer(permission, { parts: [text("yes"), text("don't")] })).toEqual({
      kind: "permission",
      decision: { decision: "deny", reason: "yes\ndon't" },
    });
    expect(parseAnswer(permission, { parts: [text("oui, vas-y")] })).toEqual({
      kind: "permission",
      decision: { decision: "allow" },
    });
  });
});
