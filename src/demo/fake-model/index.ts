export { FakeModel, type FakeModelOptions } from "./server.js";
export { reply, text, toolUse, matches, pickRule } from "./rules.js";
export { parseRequest } from "./request.js";
export type * from "./types.js";
