/** The memory store (`store.type: "memory"`): ListTasks works on it as on the databases. */
import { describe } from "vitest";
import { memoryStores } from "../../../src/store/task-stores.js";
import { describeListTasks } from "./store-contract.js";

describe("memory task store", () => {
  describeListTasks(() => Promise.resolve(memoryStores()));
});
