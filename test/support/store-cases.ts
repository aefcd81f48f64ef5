/**
 * The shared case suite of a store backend (`StoreBackend`, src/store/store-backend.ts): one
 * list of case groups, run against memory, SQLite and PostgreSQL by their test files, as Hono's
 * routers share `router/common.case.test.ts`. It covers the store's own tables too: the
 * conversation map and the schedules' firing rows. A new backend runs `storeBackendCases` too; a
 * new group of cases (what a backend owes next) is a file that exports a `StoreCaseGroup`, added
 * to `STORE_CASE_GROUPS` below.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { describeCallerUsageContract } from "../unit/store/caller-usage-contract.js";
import { firingRowsCases } from "./firing-rows-cases.js";
import { sessionMapCases, type SessionMapTarget } from "./session-map-cases.js";
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
  /**
   * Where the backend keeps the conversation map (`session-map-targets.ts`): its database, or
   * memory's file of its own. The map opens in `openTaskStores`' `opened` step, before restart
   * recovery reads it, so it is reached through its opener rather than the opened backend.
   */
  readonly sessionMap: SessionMapTarget;
}

/** Cases every backend (or every persistent one) must pass, registered under the suite. */
export interface StoreCaseGroup {
  readonly name: string;
  /** The group restarts the store or needs a database: not run on memory. */
  readonly persistent: boolean;
  /** Per case, when a group needs more than vitest's default (a database per test). */
  readonly timeout?: number;
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
  // Memory keeps both in a SQLite file of its own, so they outlive a restart there too.
  {
    name: "conversation map",
    persistent: false,
    // PostgreSQL on a loaded machine takes seconds per test.
    timeout: 30_000,
    cases: (_backend, target) => sessionMapCases(target.sessionMap),
  },
  {
    name: "schedule firing rows",
    persistent: false,
    timeout: 30_000,
    cases: (_backend, target) => firingRowsCases(target),
  },
];

/** Registers every group that applies to `target` (memory: the non-persistent ones). */
export function storeBackendCases(
  backend: string,
  target: StoreTarget,
  groups: readonly StoreCaseGroup[] = STORE_CASE_GROUPS,
): void {
  describe(`${backend} store backend`, () => {
    for (const group of groups.filter((g) => target.persistent || !g.persistent)) {
      const options = group.timeout === undefined ? {} : { timeout: group.timeout };
      describe(group.name, options, () => group.cases(backend, target));
    }
  });
}
