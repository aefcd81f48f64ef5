/**
 * The wire events of one task (`t1` in `c1`) for the console's task-model tests, built with the
 * server's own builders: what the page reads from a stream.
 */
import { Role, type Message, type StreamResponse } from "@a2a-js/sdk";
import { artifact, artifactUpdate, rawPart, textPart } from "../../../../src/contract/messages.js";

export const ref = { taskId: "t1", contextId: "c1" };

export const ev = (payload: StreamResponse["payload"]): StreamResponse => ({ payload });

/** The user's message that starts the task (`m1`), of one text part. */
export const firstMessage = (text: string): Message => ({
  messageId: "m1",
  contextId: ref.contextId,
  taskId: ref.taskId,
  role: Role.ROLE_USER,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** A file's artifact update (its whole content, one last chunk), as the server sends a write. */
export const fileEvent = (
  path: string,
  content: string,
  operation: "created" | "modified",
  tool: string,
): StreamResponse =>
  ev({
    $case: "artifactUpdate",
    value: artifactUpdate(
      ref,
      artifact(`file:${path}`, path, [rawPart(Buffer.from(content), "text/plain", path)], {
        kind: "file",
        path,
        operation,
        tool,
        mediaType: "text/plain",
        size: content.length,
      }),
      { append: false, lastChunk: true },
    ),
  });
