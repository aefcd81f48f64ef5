import { describe, expect, it } from "vitest";
import { answersPart, dataPart, messageText, textPart } from "../../../console/answers.js";

const colour = {
  question: "Which colour?",
  header: "Colour",
  options: [{ label: "red" }, { label: "blue", description: "Choose blue" }],
  multiSelect: false,
};
const toppings = {
  question: "Toppings?",
  options: [{ label: "ham" }, { label: "egg" }],
  multiSelect: true,
};

describe("answersPart", () => {
  it("sends one label per single-select question and a list for a multi-select one", () => {
    const built = answersPart([colour, toppings], {
      "Which colour?": ["blue"],
      "Toppings?": ["ham", "egg"],
    });
    expect(built).toEqual({
      ok: true,
      part: dataPart({ answers: { "Which colour?": "blue", "Toppings?": ["ham", "egg"] } }),
    });
  });

  it("refuses to send while a question has no answer", () => {
    expect(
      answersPart([colour, toppings], { "Which colour?": ["red"], "Toppings?": [" "] }),
    ).toEqual({
      ok: false,
      missing: "Toppings?",
    });
  });
});

describe("messageText", () => {
  it("joins a message's text parts by newlines (the terminal joins them by nothing)", () => {
    const parts = [textPart("one"), dataPart({}), textPart("two")];
    expect(messageText({ parts } as never)).toBe("one\ntwo");
    expect(messageText(undefined)).toBe("");
  });
});
