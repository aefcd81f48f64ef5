/** `/healthz` latency, sampled in a loop until stopped: how long the server's event loop makes a trivial request wait. */
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";

export interface Probe {
  /** Stops sampling; resolves with the latencies (ms) once the request in flight is answered. */
  stop(): Promise<number[]>;
}

export function probeHealth(baseUrl: string, pauseMs = 20): Probe {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      const res = await fetch(`${baseUrl}/healthz`);
      await res.arrayBuffer();
      samples.push(performance.now() - start);
      await delay(pauseMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** `count` sequential `/healthz` latencies on an otherwise idle server. */
export async function idleHealth(baseUrl: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const res = await fetch(`${baseUrl}/healthz`);
    await res.arrayBuffer();
    samples.push(performance.now() - start);
    await delay(20);
  }
  return samples;
}
