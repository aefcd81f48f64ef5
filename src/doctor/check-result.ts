/** One line of `claude-a2a --check`. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  /** What was found (ok) or what is wrong. */
  readonly detail: string;
  /** How to fix it, when not ok. */
  readonly fix?: string;
  /** Something right but worth changing (ok stays true, the exit code 0). */
  readonly warning?: string;
}
