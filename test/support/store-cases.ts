/**
 * The shared case suite of a store backend (`StoreBackend`, src/store/store-backend.ts): one
 * list of case groups, run against memory, SQLite and PostgreSQL by their test files, as Hono's
 * routers share `router/common.case.test.ts`. A new backend runs `storeBackendCases` too; a new
 * group of cases (what a backend owes next) is a file that exports a `StoreCaseGroup`, added to
 * `STORE_CASE_GROUPS` below.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { describeCallerUsageContract } from "../unit/store/caller-usage-contract.js";
import {
  as,
  describeListTasks,
  describeStoreContract,
  task,
  useTargetStores,
  type ContractTarget,
} from "../unit/store/store-contract.js";

/** A backend under test: how to open it, and whether what it holds outlives a restart. */
export interface StoreTarget extends ContractTarget {
  /** False for memory: the groups that restart the store are not its. */
  readonly persistent: boolean;
}

/** Cases every backend (or every persistent one) must pass, registered under the suite. */
export interface StoreCaseGroup {
  readonly name: string;
  /** The group restarts the store or needs a database: not run on memory. */
  readonly persistent: boolean;
  readonly cases: (backend: string, target: StoreTarget) => void;
}

const alice = as("alice");

/** The four interfaces and the upkeep of `StoreBackend`, each answering on a fresh store. */
const backendCases: StoreCaseGroup = {
  name: "what a backend owes",
  persistent: false,
  cases: (_backend, target) => {
    const { openStores } = useTargetStores(target);

    it("gives the four interfaces, each answering: tasks, push configs, every owner's tasks, usage", async () => {
      const stores = await openStores();
      await stores.taskStore.save(task("t-1", TaskState.TASK_STATE_COMPLETED), alice);
      expect((await stores.taskStore.load("t-1", alice))?.id).toBe("t-1");
      expect(await stores.taskStore.load("t-1", as("bob"))).toBeUndefined();

      const config = { tenant: "", id: "p-1", taskId: "t-1", url: "https://example.com/hook" };
      await stores.pushStore.save("t-1", alice, {
        ...config,
        token: "",
        authentication: undefined,
      });
      expect((await stores.pushStore.load("t-1", alice)).map((c) => c.id)).toEqual(["p-1"]);

      expect(await stores.everyOwner.ownerOf("t-1", "")).toEqual(expect.any(String));
      expect(await stores.everyOwner.ownerOf("no-such-task", "")).toBeUndefined();

      await stores.usage.recordStart("login:alice", 1_000);
      const usage = await stores.usage.load(0, "2025-01-31");
      expect(usage.starts).toEqual([{ owner: "login:alice", atMs: 1_000 }]);
    });

    it("answers its upkeep: ping, no write fault, the count by state", async () => {
      const stores = await openStores();
      await stores.taskStore.save(task("t-1", TaskState.TASK_STATE_COMPLETED), alice);
      await expect(stores.ping()).resolves.toBeUndefined();
      expect(stores.writeFaults()).toEqual([]);
      const counts = await stores.countByState();
      expect(Object.values(counts ?? { completed: 1 }).reduce((a, b) => a + b, 0)).toBe(1);
    });

    it(`keeps numbered events for replay exactly when it is persistent (${String(target.persistent)})`, async () => {
      const stores = await openStores();
      expect(stores.replayBackend !== undefined).toBe(target.persistent);
    });
  },
};

/** Every group, in the order they run. */
export const STORE_CASE_GROUPS: readonly StoreCaseGroup[] = [
  backendCases,
  {
    name: "ListTasks",
    persistent: false,
    cases: (_backend, target) => {
      const { openStores } = useTargetStores(target);
      describeListTasks(() => openStores());
    },
  },
  { name: "task store", persistent: true, cases: describeStoreContract },
  { name: "caller usage", persistent: true, cases: describeCallerUsageContract },
];

/** Registers every group that applies to `target` (memory: the non-persistent ones). */
export function storeBackendCases(
  backend: string,
  target: StoreTarget,
  groups: readonly StoreCaseGroup[] = STORE_CASE_GROUPS,
): void {
  describe(`${backend} store backend`, () => {
    for (const group of groups.filter((g) => target.persistent || !g.persistent)) {
      describe(group.name, () => group.cases(backend, target));
    }
  });
}
