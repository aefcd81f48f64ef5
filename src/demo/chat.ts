/**
 * The demo's own chat: on a terminal, `npm run demo` opens the terminal client's `chat` on the
 * demo it just started, in the same terminal, so that a fresh clone reaches a recorded session
 * in two commands (`npm ci`, `npm run demo`). Off a terminal (a script, a test, `--no-chat`) the
 * demo only serves, as before, and is talked to from another shell.
 */

/** Whether the demo chats here. Pure. */
export function chatsHere(o: {
  noChat: boolean;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
}): boolean {
  return !o.noChat && o.stdinIsTTY && o.stdoutIsTTY;
}

/** The line the banner ends with when the demo chats here. */
export const CHAT_HERE_LINE =
  "Chatting with it here: type a message below; /exit (or Ctrl-C at the prompt) stops the demo.";

/**
 * Runs `claude-a2a chat --url <url>` in this process on the real terminal; resolves with its exit
 * code when the person leaves it. The client is loaded only then: a demo that only serves never
 * loads it.
 */
export async function chatOnTerminal(url: string): Promise<number> {
  const { runClient, processEnv } = await import("../client/index.js");
  return runClient(["chat", "--url", url], processEnv());
}
