/**
 * One PostgreSQL server for a unit test file (`startTestPostgres`), started before its first test
 * and stopped after its last: the hooks each Postgres file wrote out, with the timeouts a first
 * start of the embedded binaries needs on a loaded machine.
 */
import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "../postgres.js";

/** Registers the hooks; `createDatabase` gives each caller (each test) an empty database's URL. */
export function useTestPostgres(): Pick<TestPostgres, "createDatabase"> {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);
  return {
    createDatabase: () => {
      if (!server) throw new Error("no PostgreSQL server");
      return server.createDatabase();
    },
  };
}
