import {
  query,
  type EffortLevel,
  type Options,
  type SandboxSettings,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";

/**
 * The part of a running SDK query the provider relies on. Keeping it this small is what lets the
 * unit tests script a whole session without spawning Claude Code.
 */
export interface QueryHandle {
  /** Only the query pump may call this (plan invariant 1). */
  next(): Promise<IteratorResult<SDKMessage, void>>;
  interrupt(): Promise<unknown>;
  stopTask(taskId: string): Promise<void>;
  /** The live process's model for the turns after this (streaming input only). */
  setModel(model?: string): Promise<void>;
  /**
   * The flag-settings layer, mid-session; `effortLevel: null` returns to the model's default,
   * `sandbox: null` drops a sandbox overlay (back to the `sandbox` option the process started with).
   */
  applyFlagSettings(settings: {
    effortLevel?: EffortLevel | null;
    sandbox?: SandboxSettings | null;
  }): Promise<void>;
  close(): void;
}

export interface QueryParams {
  /** Streaming input: stays open for the life of the session so one process serves every turn. */
  prompt: AsyncIterable<SDKUserMessage>;
  options: Options;
}

export type QueryFactory = (params: QueryParams) => QueryHandle;

export const defaultQueryFactory: QueryFactory = (params) => query(params);
