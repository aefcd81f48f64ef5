/** What the scripted model was asked, for the tests that check what Claude knew at a point. */
import type { TestBench } from "../bench.js";

/** The body of the model request that carried `prompt` last (what Claude knew then). */
export function requestOf(h: { readonly bench: TestBench }, prompt: string): string {
  const found = h.bench.model.requests.filter((r) => r.request.lastUserText.includes(prompt));
  const last = found.at(-1);
  if (last === undefined) throw new Error(`no model request for ${prompt}`);
  return JSON.stringify(last.request.body);
}
