export { FakeModel } from "./server.js";
export { reply, text, toolUse, pickRule } from "./rules.js";
export { parseRequest } from "./request.js";
export type * from "./types.js";
