import type { SettingSource } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { PERMISSION_MODES } from "../claude/index.js";
import { minutes, name, names, positiveInt } from "./schema-parts.js";
import { claudeOptionsShape } from "./claude-options-schema.js";
import { sandboxSchema } from "./sandbox-schema.js";
import { deliverySchema } from "./delivery-schema.js";

/** The `claude` section of the config: how Claude Code runs each task. */
export const SETTING_SOURCES = ["user", "project", "local"] as const;

// Fails to compile when the Agent SDK adds or drops a value, so the schema cannot silently drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _settingSourcesMatchSdk: Same<(typeof SETTING_SOURCES)[number], SettingSource> = true;

export const claudeSchema = z.strictObject({
  cwd: name()
    .optional()
    .describe(
      "Working directory for Claude, also where the session file lives. Relative paths resolve " +
        "against the directory the server was started in. Default: the current directory.",
    ),
  permissionMode: z
    .enum(PERMISSION_MODES)
    .default("acceptEdits")
    .describe(`Agent SDK permission mode: ${PERMISSION_MODES.join(", ")}.`),
  allowedPermissionModes: z
    .array(z.enum(PERMISSION_MODES), { error: "expected an array of permission modes" })
    .default([])
    .describe(
      "Permission modes a message may ask for its task (metadata.permissionMode, with the " +
        'control extension): "plan" lets a client have Claude plan first and approve the plan ' +
        "(docs/control.md). A mode wider than claude.permissionMode is refused even when listed " +
        "(plan < dontAsk < default < acceptEdits < auto < bypassPermissions). Default: none.",
    ),
  model: name()
    .optional()
    .describe(
      "Model id of every task; a message may ask for another of claude.allowedModels. " +
        "Default: the SDK's default.",
    ),
  allowedTools: names().optional().describe("Tools usable without a permission prompt."),
  disallowedTools: names().optional().describe("Tools Claude may never use."),
  settingSources: z
    .array(z.enum(SETTING_SOURCES))
    .default([...SETTING_SOURCES])
    .describe(
      "Claude Code settings sources to load. The Agent SDK loads none by default, which " +
        "ignores CLAUDE.md, settings.json and project slash commands; this default restores " +
        "the claude CLI's behaviour.",
    ),
  maxTurns: positiveInt().optional().describe("Hard cap on agent turns per task. Default: none."),
  maxBudgetUsd: z
    .number({ error: "expected a number of US dollars greater than 0" })
    .positive({ error: "expected a number of US dollars greater than 0" })
    .optional()
    .describe(
      "Most a task may spend (USD, the runtime's estimate): checked as each of its runs ends, " +
        "the task fails once it has spent more. A message's metadata.maxBudgetUsd may lower it " +
        "for its task, never raise it. Default: none.",
    ),
  permissionPrompts: z
    .enum(["input-required", "deny"])
    .default("input-required")
    .describe(
      "What to do with a tool permission prompt permissionMode did not auto-allow: bridge it " +
        'to the client ("input-required") or "deny" it at once. Questions (AskUserQuestion) ' +
        "are always bridged.",
    ),
  maxPermissionDenials: positiveInt()
    .default(3)
    .describe("Permission denials a task may collect before it is stopped."),
  inputTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe(
      "An unanswered question or permission prompt is denied after this long (ms) and the " +
        "task fails, saying so: a parked task must not hold its context forever.",
    ),
  backgroundTasks: z
    .enum(["wait", "detach"], { error: 'expected "wait" or "detach"' })
    .default("wait")
    .describe(
      'Background work a turn starts (background Bash, background subagents): "wait" keeps the ' +
        "task working until that work and the runs it wakes are done, and streams them into it; " +
        '"detach" completes the task at its turn\'s result, and what the work wakes later ' +
        "arrives as a new (autonomous) task in the context.",
    ),
  isolation: z
    .enum(["shared", "worktree"], { error: 'expected "shared" or "worktree"' })
    .default("shared")
    .describe(
      '"shared": every conversation works in the workspace itself. "worktree": each ' +
        "conversation works in a git worktree of its own, on a branch of its own, and each " +
        "task's changes are committed there when it ends (the workspace must be in a git " +
        "repository with a commit).",
    ),
  worktreeDir: name()
    .default(".claude/worktrees")
    .describe(
      'With isolation "worktree": where the conversations\' worktrees go. A relative path ' +
        "resolves against claude.cwd; inside the repository, it is added to .git/info/exclude. " +
        "The default is the folder of Claude Code's own worktrees, whose files it edits without " +
        "asking (elsewhere under .claude/ an edit asks for permission).",
    ),
  backgroundWaitTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe(
      'With "wait": longest a task waits for its background work (ms); then it completes, ' +
        "saying so, and what the work produces later arrives as a new task.",
    ),
  sandbox: sandboxSchema.optional(),
  delivery: deliverySchema.optional(),
  ...claudeOptionsShape,
});
