/** What the scripted model was asked, for the tests that check what Claude knew at a point. */
import { expect } from "vitest";
import type { TestBench } from "../bench.js";

/** The body of the model request that carried `prompt` last (what Claude knew then). */
export function requestOf(h: { readonly bench: TestBench }, prompt: string): string {
  const found = h.bench.model.requests.filter((r) => r.request.lastUserText.includes(prompt));
  const last = found.at(-1);
  if (last === undefined) throw new Error(`no model request for ${prompt}`);
  return JSON.stringify(last.request.body);
}

/**
 * What Claude knew when it was asked `prompt` (that model request's body): every text of `knew`,
 * none of `forgot` (e.g. the prompts of tasks a rewind took back).
 */
export function expectKnew(
  h: { readonly bench: TestBench },
  prompt: string,
  knew: readonly string[],
  forgot: readonly string[] = [],
): void {
  const seen = requestOf(h, prompt);
  for (const text of knew) expect(seen).toContain(text);
  for (const text of forgot) expect(seen).not.toContain(text);
}
