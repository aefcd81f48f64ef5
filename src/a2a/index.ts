/**
 * The A2A side of the server: A2A requests become tasks, and a task's Claude runs become A2A
 * events. One folder per sub-domain, each with an index.ts saying what it holds and who may import
 * it (docs/ARCHITECTURE.md has the map):
 *
 *   card/         the cards as served (public, extended, signed, the v0.3 form)
 *   handler/      the layers of the request handler stack (guards, operators, replay, generations)
 *   admission/    what a new task's message may ask (budget, model, sandbox, mode)
 *   routing/      the executor, conversation queues, run ownership, autonomous tasks
 *   channel/      a task's outlet: the task channel, event numbers, the bus manager
 *   task/         one task: lifecycle, the task object, its prompts, run output, background wait
 *   interaction/  questions, permission answers, loop protection (pure)
 *   content/      input parts, content modes, file artifacts
 *   push/         webhook targets, delivery, the retrying sender
 *
 * Imported by the app's wiring (src/app/agent.ts) and the bindings; it imports no binding.
 */
export { ClaudeAgentExecutor } from "./routing/index.js";
export { GuardedRequestHandler } from "./handler/index.js";
export { TaskBusManager } from "./channel/index.js";
