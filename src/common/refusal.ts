/**
 * The one shape of a decision that may say no: `{ ok: true, …what it found }` or
 * `{ ok: false, reason }`. Every such decision in src/ returns a `Checked`, so a caller reads
 * `ok` and `reason` the same way everywhere.
 */

/** The "no" of a decision: why, as a sentence for the caller (or a richer value, `R`). */
export interface Refusal<R = string> {
  readonly ok: false;
  readonly reason: R;
}

/** A decision's answer: allowed (with what it found, `T`), or refused (`Refusal<R>`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: nothing found but "yes"
export type Checked<T extends object = {}, R = string> = ({ readonly ok: true } & T) | Refusal<R>;

/** The refusal `reason`. Pure. */
export const refuse = <R = string>(reason: R): Refusal<R> => ({ ok: false, reason });
