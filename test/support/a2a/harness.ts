/**
 * The first entry point of the e2e harness, kept for the tests written against it: the builder
 * lives in `test/support/harness/` (`a2a()`, `sharedA2A()`, …), this re-exports its pieces.
 */
export { freePort } from "../harness/ports.js";
export {
  collect,
  describeStream,
  listRequest,
  messageText,
  partsText,
  sendRequest,
  stateName,
  textPart,
  userMessage,
} from "../harness/messages.js";
