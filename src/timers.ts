/**
 * The clock seam: where a decision depends on time (idle eviction, input timeouts), the module
 * takes a `Timers` so a test drives time by hand instead of sleeping.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers, unref'd: a pending timeout never keeps the process alive on its own. */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
