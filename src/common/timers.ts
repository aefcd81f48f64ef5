/**
 * The clock seam: where a decision depends on time (idle eviction, input timeouts), the module
 * takes a `Timers` so a test drives time by hand instead of sleeping.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The wall clock seam: where a decision depends on the date (a UTC day, a minute's window). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

/** Real timers, unref'd: a pending timeout never keeps the process alive on its own. */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** One timeout at a time: arming it again replaces the pending one. */
export class OneShot {
  private handle: unknown;

  constructor(private readonly timers: Timers) {}

  get armed(): boolean {
    return this.handle !== undefined;
  }

  arm(ms: number, fire: () => void): void {
    this.clear();
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      fire();
    }, ms);
  }

  clear(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }
}
