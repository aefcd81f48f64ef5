/**
 * The A2A side of the server: A2A requests become tasks, and a task's Claude runs become A2A
 * events. One folder per sub-domain, each with an index.ts saying what it holds and who may import
 * it (docs/ARCHITECTURE.md has the map):
 *
 *   card/         the cards as served (public, extended, signed, the v0.3 form)
 *   handler/      the guarded request handler, the bus manager, the task channel
 *   routing/      the executor, conversation queues, run ownership, autonomous tasks
 *   task/         one task: lifecycle, the task object, its prompts, run output, background wait
 *   interaction/  questions, permission answers, loop protection (pure)
 *   content/      input parts, content modes, file artifacts
 *   push/         webhook targets, delivery, the retrying sender
 *
 * Imported by the app's wiring (src/app/agent.ts) and the bindings; it imports no binding.
 */
export { ClaudeAgentExecutor } from "./routing/index.js";
export { GuardedRequestHandler, TaskBusManager } from "./handler/index.js";
