import { z } from "zod";

/** `server.control`: the control extension's switches (docs/control.md). */
export const controlSchema = z
  .strictObject({
    steer: z
      .boolean({ error: "expected true or false" })
      .default(true)
      .describe(
        "Let a client that activates the control extension (A2A-Extensions header) send a " +
          "message to a task that is still working: it is delivered to the running turn " +
          "(docs/control.md). Off, or without the header: such a message is refused.",
      ),
    plan: z
      .boolean({ error: "expected true or false" })
      .default(true)
      .describe(
        'Let a client that activates the control extension create a task in plan mode (metadata.permissionMode "plan") ' +
          "where claude.allowedPermissionModes lists it: Claude plans, the plan is an input " +
          "request (plan_approval), an approval carries it out (docs/control.md). Off: " +
          '"plan" is refused.',
      ),
    rewind: z
      .boolean({ error: "expected true or false" })
      .default(true)
      .describe(
        "Let a client that activates the control extension send metadata.rewindTo: the " +
          "conversation goes back to just before that task of its context, and so do its files " +
          "(the worktree is reset, later commits kept on a branch; without worktrees, Claude " +
          "Code's file checkpoints, which miss changes made by Bash). Off: such a message is " +
          "refused.",
      ),
    fork: z
      .boolean({ error: "expected true or false" })
      .default(true)
      .describe(
        "Let a client that activates the control extension start a new context with " +
          "metadata.forkOf: a new conversation that continues from the end of one of its own " +
          "tasks, or any caller's for an operator (under worktrees, on a new branch from that " +
          "task's commit). Off: refused.",
      ),
  })
  .prefault({})
  .describe(
    "The control extension: what a client may do to a task it delegated besides answering " +
      "and canceling it. The card's extension lists the controls that are on.",
  );
