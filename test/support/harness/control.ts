/** The control extension's tests: a client that activates it, and the scripted model's view. */
import { CONTROL_EXTENSION_URI } from "../../../src/contract/control.js";

/** A `fetch` whose every request names the control extension (the `A2A-Extensions` header). */
export const withControl: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("A2A-Extensions", CONTROL_EXTENSION_URI);
  return fetch(input, { ...init, headers });
};

/** A scripted-model request whose body holds `needle` (e.g. a steering message reached it). */
export const bodyHas =
  (needle: string) =>
  (req: { body: unknown }): boolean =>
    JSON.stringify(req.body).includes(needle);
