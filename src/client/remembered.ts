import type { Client } from "@a2a-js/sdk/client";
import type { Colors } from "./colors.js";
import type { Session } from "./env.js";

/**
 * The remembered conversation with this server, if the server still knows it: a server started
 * anew on an old URL (the demo's, a test's) has none of its tasks, and continuing there would
 * put the message in a context nobody else knows. The server is asked for one task of that
 * context (ListTasks); none means a new conversation, said on stderr. A server that cannot list
 * (another agent) keeps the remembered one.
 */
export async function rememberedContext(
  s: Session,
  client: Client,
  say: (text: string) => void,
  c: Colors,
): Promise<string | undefined> {
  const remembered = await s.memory.get(s.url);
  if (remembered === undefined) return undefined;
  try {
    const { tasks } = await client.listTasks({
      tenant: "",
      contextId: remembered,
      status: 0,
      pageSize: 1,
      pageToken: "",
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    if (tasks.length > 0) return remembered;
  } catch {
    return remembered;
  }
  say(
    c.dim(
      `the server does not know the remembered conversation ${remembered}: starting a new one\n`,
    ),
  );
  return undefined;
}
