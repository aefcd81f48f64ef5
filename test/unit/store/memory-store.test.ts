/** The memory store (`store.type: "memory"`): the shared cases that need no restart. */
import { storeBackendCases } from "../../support/store-cases.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const cwd = useTempDir("a2a-memory-");

storeBackendCases("memory", { config: () => ({ type: "memory" }), cwd, persistent: false });
