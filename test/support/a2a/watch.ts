import type { StreamResponse } from "@a2a-js/sdk";

/** Reads a stream in the background; `first(pred)` resolves as soon as a matching item arrives. */
export function watch(stream: AsyncIterable<StreamResponse>) {
  const items: StreamResponse[] = [];
  const waiters: { pred: (e: StreamResponse) => boolean; resolve: (e: StreamResponse) => void }[] =
    [];
  const done = (async () => {
    for await (const item of stream) {
      items.push(item);
      for (const w of waiters.filter((x) => x.pred(item))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(item);
      }
    }
    return items;
  })();
  return {
    items,
    done,
    first(pred: (e: StreamResponse) => boolean): Promise<StreamResponse> {
      const seen = items.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ pred, resolve });
        void done.then(
          () => reject(new Error("stream ended before the expected event")),
          (err: unknown) => reject(err as Error),
        );
      });
    },
  };
}
