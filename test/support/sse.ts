/**
 * A raw SSE reader, for what the official client hides: comment lines, `id:` fields, and a read
 * timeout like an HTTP client's (httpx's `read`), which fails the read when no byte arrived for
 * that long.
 */

/** One SSE block: a comment (`: …` lines only) or an event (`id:`, `event:`, `data:`). */
export interface SseBlock {
  readonly comment?: string;
  readonly id?: string;
  readonly event?: string;
  readonly data?: Record<string, unknown>;
}

export function parseBlock(block: string): SseBlock {
  const out: { comment?: string; id?: string; event?: string; data?: Record<string, unknown> } = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) out.comment = line.slice(1).trim();
    else if (line.startsWith("id: ")) out.id = line.slice(4);
    else if (line.startsWith("event: ")) out.event = line.slice(7);
    else if (line.startsWith("data: "))
      out.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
  }
  return out;
}

export class SseReader {
  readonly blocks: SseBlock[] = [];
  /** Set when the stream ended (or failed: `error`). */
  ended = false;
  error: Error | undefined;
  private waiters: (() => void)[] = [];
  private readonly done: Promise<void>;

  /** Reads `res`'s body in the background; with `readTimeoutMs`, fails after that much silence. */
  constructor(res: Response, abort: AbortController, readTimeoutMs?: number) {
    if (res.body === null) throw new Error(`no body (HTTP ${res.status})`);
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    this.done = (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        if (readTimeoutMs === undefined) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          this.error = new Error(`read timeout: nothing for ${readTimeoutMs} ms`);
          abort.abort();
        }, readTimeoutMs);
      };
      try {
        arm();
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          arm();
          buffer += decoder.decode(chunk.value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            this.blocks.push(parseBlock(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
          }
          this.wake();
        }
      } catch (err) {
        this.error ??= err as Error;
      } finally {
        clearTimeout(timer);
        this.ended = true;
        this.wake();
      }
    })();
  }

  /** The event blocks (not comments). */
  get events(): SseBlock[] {
    return this.blocks.filter((b) => b.comment === undefined);
  }

  get comments(): SseBlock[] {
    return this.blocks.filter((b) => b.comment !== undefined);
  }

  /** Resolves once `pred` holds of what was read; rejects if the stream ends first. */
  async until(pred: (r: SseReader) => boolean): Promise<void> {
    while (!pred(this)) {
      if (this.ended) throw this.error ?? new Error("the stream ended first");
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves when the stream has ended; rejects with its error. */
  async finished(): Promise<SseBlock[]> {
    await this.done;
    if (this.error) throw this.error;
    return this.blocks;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** Opens an SSE request (`fetch(url, init)`) and reads it with an `SseReader`. */
export async function openSse(
  url: string,
  init: RequestInit,
  readTimeoutMs?: number,
): Promise<SseReader> {
  const abort = new AbortController();
  const res = await fetch(url, { ...init, signal: abort.signal });
  return new SseReader(res, abort, readTimeoutMs);
}

/** The `metadata.kind` of an event block's status update, if any. */
export function statusKind(b: SseBlock): string | undefined {
  const result = (b.data?.result ?? b.data) as Record<string, unknown> | undefined;
  const update = result?.statusUpdate as
    { status?: { state?: string; message?: { metadata?: { kind?: string } } } } | undefined;
  return update?.status?.message?.metadata?.kind;
}

/** The task state of an event block's status update (or task), if any. */
export function stateOf(b: SseBlock): string | undefined {
  const result = (b.data?.result ?? b.data) as Record<string, unknown> | undefined;
  const update = (result?.statusUpdate ?? result?.task) as
    { status?: { state?: string } } | undefined;
  return update?.status?.state;
}

/** The task id of an event block (task, status or artifact update). */
export function taskIdOf(b: SseBlock): string | undefined {
  const result = (b.data?.result ?? b.data) as Record<string, unknown> | undefined;
  const task = result?.task as { id?: string } | undefined;
  const update = (result?.statusUpdate ?? result?.artifactUpdate) as
    { taskId?: string } | undefined;
  return task?.id ?? update?.taskId;
}
