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
  })
  .prefault({})
  .describe(
    "The control extension: what a client may do to a task it delegated besides answering " +
      "and canceling it. The card's extension lists the controls that are on.",
  );
