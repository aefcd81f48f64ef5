import type { Inbox } from "../../src/a2a/task/environment.js";

/** A gate a test opens: `wait()` parks a caller until `open()`. */
export class Gate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.release = resolve));
  open(): void {
    this.release();
  }
}

/** An inbox whose writes wait for the test's gate (then write for real). */
export class GatedInbox implements Inbox {
  readonly writeStarted: Promise<void>;
  readonly gate = new Gate();
  readonly removed: string[] = [];
  written = 0;
  private markStarted!: () => void;

  constructor(private readonly inner: Inbox) {
    this.writeStarted = new Promise((resolve) => (this.markStarted = resolve));
  }

  async write(cwd: string, files: Parameters<Inbox["write"]>[1]): Promise<void> {
    this.markStarted();
    await this.gate.opened;
    await this.inner.write(cwd, files);
    this.written += files.length;
  }

  /** Records the task id: the folder's last segment. */
  async remove(cwd: string, folder: string): Promise<void> {
    await this.inner.remove(cwd, folder);
    this.removed.push(folder.split("/").at(-1) ?? folder);
  }
}
