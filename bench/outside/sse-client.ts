/**
 * A plain HTTP client in its own process (no A2A SDK): one JSON line on stdin per turn,
 * `{ "url", "prompt", "contextId" }`; it posts `SendStreamingMessage` (JSON-RPC) and reads the
 * server-sent events to the end of the response, then writes one JSON line: the time to the
 * first and the last artifact chunk, to the event with the final status, and to the response's
 * end.
 */
import { request } from "node:http";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";

interface Ask {
  readonly url: string;
  readonly prompt: string;
  readonly contextId?: string;
}

interface Event {
  readonly result?: {
    readonly task?: { readonly contextId?: string };
    readonly artifactUpdate?: unknown;
    readonly statusUpdate?: { readonly final?: boolean; readonly status?: { state?: string } };
  };
}

function turn(ask: Ask): Promise<Record<string, unknown>> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendStreamingMessage",
    params: {
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: ask.prompt }],
        ...(ask.contextId !== undefined && ask.contextId !== "" && { contextId: ask.contextId }),
      },
    },
  });
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let firstChunkMs = Number.NaN;
    let lastChunkMs = Number.NaN;
    let finalStatusMs = Number.NaN;
    let events = 0;
    let state = "";
    let contextId = ask.contextId ?? "";
    let buffered = "";
    const req = request(
      `${ask.url.replace(/\/$/, "")}/a2a/jsonrpc`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "a2a-version": "1.0",
          accept: "text/event-stream",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffered += chunk;
          let end = buffered.indexOf("\n\n");
          while (end >= 0) {
            const frame = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            end = buffered.indexOf("\n\n");
            const data = frame
              .split("\n")
              .filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).trim())
              .join("");
            if (data === "") continue;
            events++;
            const e = JSON.parse(data) as Event;
            const r = e.result;
            if (r?.task?.contextId !== undefined) contextId = r.task.contextId;
            if (r?.artifactUpdate !== undefined) {
              lastChunkMs = performance.now() - start;
              if (Number.isNaN(firstChunkMs)) firstChunkMs = lastChunkMs;
            }
            const s = r?.statusUpdate?.status?.state;
            if (s !== undefined) state = s;
            if (s === "TASK_STATE_COMPLETED" || s === "TASK_STATE_FAILED") {
              finalStatusMs = performance.now() - start;
            }
          }
        });
        res.on("end", () => {
          const endMs = performance.now() - start;
          resolve({ firstChunkMs, lastChunkMs, finalStatusMs, endMs, events, state, contextId });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const out = await turn(JSON.parse(line) as Ask).catch((err: unknown) => ({
    error: String(err),
  }));
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
