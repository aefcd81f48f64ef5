/**
 * The store's writes as `/healthz` reports them (docs/reliability.md "Health under storage
 * faults"): a part of the store whose last write failed, the task rows or the events kept for
 * replay, is a fault shown until a later write of that part succeeds, or for `shownMs` after it
 * if nothing of that part is written since (a fault no write tries again is not kept forever).
 * A ping that answers does not clear it: a full disk still answers `SELECT 1`.
 */
import type { TaskStore } from "@a2a-js/sdk/server";
import { storeFaultOf, type StoreFault } from "../contract/store-faults.js";
import type { ReplayBackend } from "./kept-events.js";

/** What the store writes: the tasks (their rows) and the events kept for replay. */
export type StorePart = "tasks" | "replay";

export interface WriteFault {
  readonly part: StorePart;
  readonly fault: StoreFault;
  /** The driver's message (the log has the rest). */
  readonly error: string;
  /** When it first failed, since the last write of the part that succeeded (ISO). */
  readonly since: string;
}

interface Failing {
  readonly fault: WriteFault;
  /** The latest failure (epoch ms): `shownMs` counts from it. */
  last: number;
}

export const FAULT_SHOWN_MS = 60_000;

export class WriteWatch {
  private readonly failing = new Map<StorePart, Failing>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly shownMs = FAULT_SHOWN_MS,
  ) {}

  /** Runs a write of `part`, remembering whether it failed. Rethrows its error. */
  async watch<T>(part: StorePart, write: () => Promise<T>): Promise<T> {
    try {
      const result = await write();
      this.failing.delete(part);
      return result;
    } catch (err) {
      this.failed(part, err);
      throw err;
    }
  }

  failed(part: StorePart, err: unknown): void {
    const at = this.now();
    const known = this.failing.get(part);
    const fault = storeFaultOf(err);
    if (known !== undefined && known.fault.fault === fault) {
      known.last = at;
      return;
    }
    const error = err instanceof Error ? err.message : String(err);
    this.failing.set(part, { fault: { part, fault, error, since: iso(at) }, last: at });
  }

  /** The faults to show now, tasks first. */
  faults(): WriteFault[] {
    const at = this.now();
    const shown: WriteFault[] = [];
    for (const part of ["tasks", "replay"] as const) {
      const failing = this.failing.get(part);
      if (failing === undefined) continue;
      if (at - failing.last > this.shownMs) this.failing.delete(part);
      else shown.push(failing.fault);
    }
    return shown;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `store`, its saves watched as writes of the tasks (a store that writes at each save). */
export function watchedSaves(store: TaskStore, watch: WriteWatch): TaskStore {
  return {
    save: (task, context) => watch.watch("tasks", () => store.save(task, context)),
    load: (taskId, context) => store.load(taskId, context),
    list: (params, context) => store.list(params, context),
  };
}

/** `backend`, its writes watched as writes of the replay events. */
export function watchedReplay(backend: ReplayBackend, watch: WriteWatch): ReplayBackend {
  return {
    write: (events, sends) => watch.watch("replay", () => backend.write(events, sends)),
    read: (taskId, cursor) => backend.read(taskId, cursor),
    findSend: (scope, key) => backend.findSend(scope, key),
    prune: (cutoff) => backend.prune(cutoff),
  };
}
