import { A2AError, type A2AErrorInfo } from "@a2a-js/sdk/errors";
import { limitErrorInfo, limitMessage, type LimitErrorInfo } from "../contract/limits.js";
import type { Refusal } from "../../limits/decisions.js";

/**
 * A new task refused by a per-caller limit, before any task exists. The SDK maps an A2A error it
 * does not know to an internal error; the bindings' answers are corrected by the reason in its
 * ErrorInfo (`src/http/limit-answers.ts`): JSON-RPC code -32029, REST 429 with `Retry-After`.
 */
export class CallerLimitError extends A2AError {
  readonly info: LimitErrorInfo;
  override readonly reason: string;

  constructor(caller: string, refusal: Refusal, now: number) {
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
