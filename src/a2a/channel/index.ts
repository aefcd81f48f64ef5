/**
 * A task's outlet: the task channel (task-channel.ts) through which a task publishes its events
 * and writes the store, each event numbered on its way (event-numbers.ts) and a waiting request
 * told once its task is attached (attached.ts); and the bus manager that keeps a task's bus for
 * its next turn (bus-manager.ts).
 *
 * Imported by task/ and routing/ (which publish), handler/ (replay reads the numbers), the fleet
 * and the app's wiring. It imports the contract and the store's replay log type only.
 */
export { TaskChannel, type AmendingTaskStore, type ChannelOptions } from "./task-channel.js";
export { TaskBusManager } from "./bus-manager.js";
export { endsStream, eventNumberOf, withEventNumber } from "./event-numbers.js";
export { awaitAttach, tellAttached, type OnAttached } from "./attached.js";
