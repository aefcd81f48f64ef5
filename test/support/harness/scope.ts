/**
 * Who tears down what a test started. A `Scope` owns closers and runs them newest first; a test's
 * scope closes when the test ends (`onTestFinished`), a shared one after the last test of its
 * `describe` (or file) (`afterAll`).
 */
import { afterAll, beforeAll, onTestFinished } from "vitest";

export interface Closeable {
  close(): Promise<void> | void;
}

export class Scope {
  private readonly closers: (() => Promise<void> | void)[] = [];

  /** `item`, closed with this scope. */
  own<T extends Closeable>(item: T): T {
    this.closers.push(() => item.close());
    return item;
  }

  /** Runs `fn` when this scope closes. */
  defer(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  /** Closes everything owned, newest first; every closer runs, the first failure is thrown. */
  async close(): Promise<void> {
    let failure: unknown;
    for (const close of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) {
      throw failure instanceof Error ? failure : new Error("a closer failed", { cause: failure });
    }
  }
}

/** A scope that closes when the running test ends, whether it passed or not. */
export function testScope(): Scope {
  const scope = new Scope();
  onTestFinished(() => scope.close());
  return scope;
}

/** `item`, closed when the running test ends. */
export function perTest<T extends Closeable>(item: T): T {
  onTestFinished(() => item.close());
  return item;
}

/**
 * Started once before the tests of the enclosing `describe` (or file), closed after the last:
 * call at collection time; the getter returns the value inside a test.
 */
export function shared<T extends Closeable>(start: () => Promise<T>, timeoutMs = 60_000): () => T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  }, timeoutMs);
  afterAll(async () => {
    await value?.close();
    value = undefined;
  }, timeoutMs);
  return () => {
    if (value === undefined)
      throw new Error("the shared harness is not started (use it inside a test)");
    return value;
  };
}
