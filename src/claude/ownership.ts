/**
 * Which run owns an identifier the runtime repeats later: an API message id, a tool use id, the
 * uuid of a send. The first owner wins: a later frame naming the same id is, by definition, about
 * the same work.
 */
export class OwnershipIndex {
  private readonly messages = new Map<string, string>();
  private readonly toolUses = new Map<string, string>();
  private readonly sends = new Map<string, string>();

  recordMessage(messageId: string, runId: string): void {
    if (!this.messages.has(messageId)) this.messages.set(messageId, runId);
  }

  recordToolUse(toolUseId: string, runId: string): void {
    if (toolUseId !== "" && !this.toolUses.has(toolUseId)) this.toolUses.set(toolUseId, runId);
  }

  recordSend(uuid: string, runId: string): void {
    this.sends.set(uuid, runId);
  }

  runForMessage(messageId: string): string | undefined {
    return this.messages.get(messageId);
  }

  runForToolUse(toolUseId: string): string | undefined {
    return this.toolUses.get(toolUseId);
  }

  runForSend(uuid: string): string | undefined {
    return this.sends.get(uuid);
  }
}
