/** What the scripted model knows about one request, extracted once so rules stay simple. */
export interface ParsedRequest {
  /** Sequence number of the request, starting at 1. */
  readonly seq: number;
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
  /** Text of the LAST `role:"user"` message, `<system-reminder>` blocks and tool_result text included. */
  readonly lastUserText: string;
  /** tool_result blocks of the last user message, their content flattened to text. */
  readonly toolResults: readonly ToolResultInfo[];
  /** True for a subagent's request (`cc_is_subagent=true` in the first system block). */
  readonly isSubagent: boolean;
  /** Names of the tools offered to the model. */
  readonly toolNames: readonly string[];
  /** The raw JSON body, for assertions the fields above do not cover. */
  readonly body: Record<string, unknown>;
}

export interface ToolResultInfo {
  readonly toolUseId: string;
  readonly content: string;
  readonly isError: boolean;
}

export type ReplyBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_use";
      readonly name: string;
      readonly input: Record<string, unknown>;
      /** Defaults to a fresh `toolu_fake_<n>`. */
      readonly id?: string;
    };

export interface MessageReply {
  readonly kind: "message";
  readonly content: readonly ReplyBlock[];
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. */
  readonly stopReason?: "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";
  /** Split text and tool input JSON into deltas of at most this many characters (default: one delta). */
  readonly chunkSize?: number;
  /** Wait this long before each delta: makes streaming observable and interruptible. */
  readonly chunkDelayMs?: number;
  /** Defaults to a fresh `msg_fake_<n>`. */
  readonly messageId?: string;
}

/** An injected failure, to exercise the runtime's retry and error paths. */
export type FailureReply =
  | { readonly kind: "overloaded" } // HTTP 529
  | { readonly kind: "bad_request"; readonly message?: string } // HTTP 400
  /** Sends this many SSE events of the message, then destroys the socket. */
  | { readonly kind: "drop"; readonly reply: MessageReply; readonly afterEvents: number };

export type Reply = MessageReply | FailureReply;

/** A reply may be computed from the request, and may wait (e.g. on a test's gate). */
export type ReplySource = Reply | ((req: ParsedRequest) => Reply | Promise<Reply>);

export interface Matcher {
  /** Substring of, or pattern tested against, the last user text. */
  readonly lastUserText?: string | RegExp;
  /** `true`: some tool_result present; `false`: none; string/RegExp: some tool_result content matches. */
  readonly toolResult?: boolean | string | RegExp;
  readonly subagent?: boolean;
  /** Any other condition. */
  readonly when?: (req: ParsedRequest) => boolean;
}

export interface Rule {
  /** Shown in the request log and in `unmatched` diagnostics. */
  readonly name?: string;
  readonly match: Matcher;
  readonly reply: ReplySource;
  /** The rule stops matching after this many uses (default: unlimited). */
  readonly times?: number;
}

export interface RecordedRequest {
  readonly request: ParsedRequest;
  /** Name (or index) of the rule that answered; undefined when none matched. */
  readonly rule: string | undefined;
}
