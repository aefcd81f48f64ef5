import { A2AError, type A2AErrorInfo } from "@a2a-js/sdk/errors";
import { ANONYMOUS_OWNER } from "../../identity/caller.js";
import {
  limitErrorInfo,
  limitMessage,
  type LimitErrorInfo,
  type Refusal,
} from "../../contract/limits.js";

/**
 * A new task refused by a per-caller limit, before any task exists. The SDK maps an A2A error it
 * does not know to an internal error; the bindings' answers are corrected by the reason in its
 * ErrorInfo (`src/http/limit-answers.ts`): JSON-RPC code -32029, REST 429 with `Retry-After`.
 */
export class CallerLimitError extends A2AError {
  readonly info: LimitErrorInfo;
  override readonly reason: string;

  /** `scope`: the caller's (`token:ci`, `unknown`); `now`: when the refusal was decided. */
  constructor(scope: string, refusal: Refusal, now: number) {
    const caller = { scope, anonymous: scope === ANONYMOUS_OWNER };
    const info = limitErrorInfo(caller, refusal, now);
    super({ message: limitMessage(caller, refusal, now), metadata: { ...info.metadata } });
    this.info = info;
    this.reason = info.reason;
  }

  /** Our own domain, not the protocol's: the SDK types the domain as the protocol's literal. */
  override toErrorInfo(): A2AErrorInfo {
    return this.info as unknown as A2AErrorInfo;
  }
}
