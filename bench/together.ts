/**
 * Starts a scenario's servers at the same time: their start-ups are not measured, and one after
 * the other they added seconds to every run. Either all start, or those that did are closed and
 * the first failure is thrown.
 */
interface Closable {
  close(): Promise<void>;
}

export async function startTogether<const T extends readonly Promise<Closable>[]>(
  starts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed === undefined) {
    return settled.map((s) => (s as PromiseFulfilledResult<Closable>).value) as {
      -readonly [K in keyof T]: Awaited<T[K]>;
    };
  }
  const started = settled.filter((s) => s.status === "fulfilled");
  await Promise.all(started.map((s) => s.value.close()));
  throw failed.reason;
}
