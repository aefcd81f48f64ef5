import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import type { ClaudeSessionOptions } from "../../claude/index.js";

/** The tools a reviewer has: reading, and with a sandbox, Bash inside it. */
const READING = ["Read", "Glob", "Grep"];

/**
 * Taken away from a reviewer besides (`disallowedTools`, in case a later runtime adds one to the
 * base set): every tool that writes a file, starts other work (a subagent, a worktree, a
 * schedule), reaches the network or asks a person.
 */
export const REVIEWER_DENIED_TOOLS = [
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Agent",
  "Task",
  "EnterWorktree",
  "ExitWorktree",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "TaskCreate",
  "TaskUpdate",
  "TaskStop",
  "KillShell",
  "Monitor",
  "CronCreate",
  "CronDelete",
  "ScheduleWakeup",
  "RemoteTrigger",
  "PushNotification",
  "Workflow",
  "Skill",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
] as const;

/**
 * The reviewer's session options (docs/delivery.md "Review"): a NEW session (never resumed) in the
 * worktree `cwd`, the workspace's model settings, reading tools only, and `Bash` only when the
 * workspace's sandbox is on (`sandbox`): then inside it, never outside (no unsandboxed command),
 * and never auto-allowed, so only what Claude Code itself counts as read-only runs (any other
 * command would ask, and the reviewer's asks are denied). A sandbox `denyWrite` of the worktree
 * is no way to it: the runtime then cannot bind its mandatory denies there, and every command
 * fails. No settings file of the repository is loaded (`settingSources` keeps the operator's
 * `user` only): its hooks and MCP servers are the author's to write. Pure.
 */
export function reviewerOptions(o: {
  readonly cwd: string;
  readonly model: string | undefined;
  readonly effort: ClaudeSessionOptions["effort"];
  readonly fallbackModel: string | undefined;
  readonly settingSources: NonNullable<ClaudeSessionOptions["settingSources"]>;
  readonly maxTurns: number | undefined;
  /** The workspace's sandbox as its processes get it; undefined: off (no Bash at all). */
  readonly sandbox: SandboxSettings | undefined;
}): ClaudeSessionOptions {
  const sandboxed = o.sandbox?.enabled === true;
  return {
    cwd: o.cwd,
    ...(o.model !== undefined && { model: o.model }),
    ...(o.effort !== undefined && { effort: o.effort }),
    ...(o.fallbackModel !== undefined && { fallbackModel: o.fallbackModel }),
    // Nothing is allowed ahead: a tool that would ask is denied (the reviewer's canUseTool).
    permissionMode: "default",
    disallowedTools: [...REVIEWER_DENIED_TOOLS, ...(sandboxed ? [] : ["Bash"])],
    settingSources: o.settingSources.filter((s) => s === "user"),
    ...(o.maxTurns !== undefined && { maxTurns: o.maxTurns }),
    ...(sandboxed &&
      o.sandbox !== undefined && {
        sandbox: { ...o.sandbox, allowUnsandboxedCommands: false, autoAllowBashIfSandboxed: false },
      }),
    sdkOptions: {
      tools: sandboxed ? [...READING, "Bash"] : READING,
      // The operator's MCP servers are not the reviewer's either.
      strictMcpConfig: true,
    },
  };
}
