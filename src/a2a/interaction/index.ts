/**
 * What Claude asks a client and how the answer is read: the pending prompt (a question or a
 * permission request), structured and free-text answers (a permission is granted only by an
 * unambiguous yes), the per-task prompt queue, and loop protection.
 *
 * Pure decisions, no I/O. Imported by task/ and handler/ (to refuse an answer before a task
 * exists); it imports only the contract.
 */
export { parseAnswer, inputRequestContent, type Answer, type InputRequest } from "./answers.js";
export { DenialLedger, inputRequestFor, type DenialVerdict } from "./loop-protection.js";
export { decideFreeText, readReply, type Decision } from "./permission-reply.js";
export { InputRequestQueue, type InputRequestEntry } from "./input-request-queue.js";
