/**
 * The memory store (`store.type: "memory"`): the shared cases that need no restart, and its
 * conversation map and firing rows, kept in a SQLite file of their own.
 */
import { localTarget } from "../../support/session-map-targets.js";
import { storeBackendCases } from "../../support/store-cases.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const cwd = useTempDir("a2a-memory-");

storeBackendCases("memory", {
  config: () => ({ type: "memory" }),
  cwd,
  persistent: false,
  sessionMap: localTarget(),
});
