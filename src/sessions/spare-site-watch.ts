/**
 * Watches the settings and memory files of the folder spares run in (one folder at a time: the
 * current site's) and reports a change once it is complete. A save is several file events
 * (create or truncate, write, rename); reporting each would recycle a spare for a half-written
 * file and then again for the whole one.
 */
import { OneShot, type Timers } from "../common/timers.js";

/** The events of one save are over once none came for this long (ms). */
export const SETTINGS_SETTLE_MS = 200;

/** Calls `changed` when a settings or memory file of `cwd` may have changed; returns the stop. */
export type WatchSettings = (cwd: string, changed: () => void) => () => void;

export class SpareSiteWatch {
  private cwd: string | undefined;
  private stop: (() => void) | undefined;
  private readonly settle: OneShot;

  constructor(
    private readonly watch: WatchSettings | undefined,
    timers: Timers,
    private readonly changed: () => void,
  ) {
    this.settle = new OneShot(timers);
  }

  /** Watches `cwd` instead of the folder watched so far (nothing to do when it is the same). */
  follow(cwd: string): void {
    if (this.watch === undefined || this.cwd === cwd) return;
    this.stop?.();
    this.cwd = cwd;
    this.stop = this.watch(cwd, () => this.settle.arm(SETTINGS_SETTLE_MS, this.changed));
  }

  close(): void {
    this.stop?.();
    this.stop = undefined;
    this.settle.clear();
  }
}
