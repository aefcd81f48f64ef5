import type pg from "pg";
import type { Logger } from "pino";
import type { FleetMetrics } from "./fleet-metrics.js";
import type { FleetListener } from "./listener.js";
import { CHANNEL } from "./tables.js";

/** What a non-owner forwards to a task's owner. */
export type CommandKind = "cancel" | "send";

/** The caller of a forwarded request, enough for the owner to act in the caller's scope. */
export interface CallerSnapshot {
  readonly tenant: string | undefined;
  readonly userName: string;
  readonly isAuthenticated: boolean;
  /** `state.caller`: the login, token name or subject, for logs. */
  readonly name: unknown;
  /** The A2A version the client asked for: the SDK's answers depend on it (v0.3's defaults). */
  readonly requestedVersion?: string;
  readonly requestedExtensions?: readonly string[];
  readonly activatedExtensions?: readonly string[];
}

/** The owner's answer: what its handler returned (as JSON), or the error it threw. */
export type CommandReply =
  /** `after`: for a send, the owner's newest relayed event of the task before it ran it. */
  | { readonly ok: true; readonly value: unknown; readonly after?: number }
  | { readonly ok: false; readonly name: string; readonly message: string };

export interface Command {
  readonly id: string;
  readonly taskId: string;
  readonly kind: CommandKind;
  readonly request: unknown;
  readonly caller: CallerSnapshot;
}

/** Why a forwarded command got no reply. */
export class CommandNotAnswered extends Error {
  constructor(readonly why: "gone" | "timeout") {
    super(why);
  }
}

/** How often a waiting forwarder looks at its row without a notification. */
const POLL_MS = 500;

export interface CommandsOptions {
  readonly pool: pg.Pool;
  readonly instanceId: string;
  readonly listener: FleetListener;
  readonly metrics: FleetMetrics;
  readonly logger: Logger;
  /** How long a command may wait for its owner to take it up. */
  readonly timeoutMs: number;
  /** Whether an instance's lease still holds. */
  readonly isAlive: (instanceId: string) => Promise<boolean>;
}

/**
 * Commands between instances, through `claude_a2a_commands`: a non-owner inserts one for the
 * task's owner and NOTIFYs it; the owner takes it (once: `FOR UPDATE SKIP LOCKED`), runs it
 * through its own request handler, stores the reply and NOTIFYs back. A notification is only a
 * wake-up: both sides also poll.
 */
export class Commands {
  private readonly waiting = new Map<string, () => void>();
  private serve: ((command: Command) => Promise<CommandReply>) | undefined;
  private taking: Promise<void> | undefined;
  private again = false;
  private readonly unlisten: (() => void)[];

  constructor(private readonly o: CommandsOptions) {
    this.unlisten = [
      o.listener.on(CHANNEL.commands, (target) => {
        if (target === "" || target === o.instanceId) this.takeUp();
      }),
      o.listener.on(CHANNEL.replies, (id) => {
        if (id === "") for (const wake of this.waiting.values()) wake();
        else this.waiting.get(id)?.();
      }),
    ];
  }

  /** Owner side: from now on, commands for this instance are run by `serve`. */
  serveWith(serve: (command: Command) => Promise<CommandReply>): void {
    this.serve = serve;
    this.takeUp();
  }

  /** Owner side: takes up the commands waiting for this instance (also each heartbeat). */
  takeUp(): void {
    if (this.serve === undefined) return;
    if (this.taking !== undefined) {
      this.again = true;
      return;
    }
    this.taking = this.takeAll().finally(() => {
      this.taking = undefined;
      if (this.again) {
        this.again = false;
        this.takeUp();
      }
    });
  }

  /** Resolves once the commands taken so far are answered. */
  async idle(): Promise<void> {
    while (this.taking !== undefined) await this.taking;
  }

  private async takeAll(): Promise<void> {
    const serve = this.serve;
    if (serve === undefined) return;
    let rows: {
      id: string;
      task_id: string;
      kind: CommandKind;
      request: unknown;
      caller: CallerSnapshot;
    }[];
    try {
      ({ rows } = await this.o.pool.query(
        `UPDATE claude_a2a_commands SET taken_at = now()
          WHERE id IN (SELECT id FROM claude_a2a_commands
                        WHERE target = $1 AND taken_at IS NULL
                        ORDER BY id FOR UPDATE SKIP LOCKED)
          RETURNING id, task_id, kind, request, caller`,
        [this.o.instanceId],
      ));
    } catch (err) {
      this.o.logger.warn({ err }, "could not take up forwarded commands");
      return;
    }
    // Each runs on its own: a blocking send may take as long as its task's turn.
    for (const row of rows) {
      const command: Command = {
        id: String(row.id),
        taskId: row.task_id,
        kind: row.kind,
        request: row.request,
        caller: row.caller,
      };
      void this.run(serve, command);
    }
  }

  private async run(serve: (c: Command) => Promise<CommandReply>, command: Command) {
    let reply: CommandReply;
    try {
      reply = await serve(command);
    } catch (err) {
      const e = err as Error;
      reply = { ok: false, name: e.name, message: e.message };
    }
    try {
      await this.o.pool.query(
        `WITH done AS (UPDATE claude_a2a_commands SET reply = $2, replied_at = now()
                        WHERE id = $1 RETURNING id)
         SELECT pg_notify($3, $1::text) FROM done`,
        [command.id, JSON.stringify(reply), CHANNEL.replies],
      );
    } catch (err) {
      this.o.logger.error({ err, command: command.id }, "could not store a command's reply");
    }
  }

  /**
   * Non-owner side: forwards a command to `target` and waits for its reply. Throws
   * `CommandNotAnswered` when the target's lease expires first ("gone"), or when it has not taken
   * the command up within the timeout ("timeout"; the command is withdrawn).
   */
  async forward(target: string, command: Omit<Command, "id">): Promise<CommandReply> {
    const { rows } = await this.o.pool.query<{ id: string }>(
      `WITH c AS (INSERT INTO claude_a2a_commands (target, task_id, kind, request, caller)
                  VALUES ($1, $2, $3, $4, $5) RETURNING id)
       SELECT c.id, pg_notify($6, $1) FROM c`,
      [
        target,
        command.taskId,
        command.kind,
        JSON.stringify(command.request),
        JSON.stringify(command.caller),
        CHANNEL.commands,
      ],
    );
    const id = String(rows[0]?.id);
    const started = Date.now();
    try {
      for (;;) {
        const { rows: found } = await this.o.pool.query<{
          reply: CommandReply | null;
          taken: boolean;
        }>(`SELECT reply, taken_at IS NOT NULL AS taken FROM claude_a2a_commands WHERE id = $1`, [
          id,
        ]);
        const row = found[0];
        if (row?.reply != null) {
          this.count(command.kind, row.reply.ok ? "answered" : "error");
          return row.reply;
        }
        if (!(await this.o.isAlive(target))) throw this.notAnswered(command.kind, "gone");
        if (row?.taken !== true && Date.now() - started >= this.o.timeoutMs) {
          const withdrawn = await this.o.pool.query(
            `DELETE FROM claude_a2a_commands WHERE id = $1 AND taken_at IS NULL`,
            [id],
          );
          if ((withdrawn.rowCount ?? 0) > 0) throw this.notAnswered(command.kind, "timeout");
        }
        await this.replyOrPoll(id);
      }
    } finally {
      this.waiting.delete(id);
    }
  }

  private notAnswered(kind: CommandKind, why: "gone" | "timeout"): CommandNotAnswered {
    this.count(kind, why);
    return new CommandNotAnswered(why);
  }

  private count(kind: CommandKind, outcome: string): void {
    this.o.metrics.commandsForwarded.inc({ kind, outcome });
  }

  private replyOrPoll(id: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      const waiting = this.waiting;
      function done() {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      }
      waiting.set(id, done);
    });
  }

  /** Deletes answered commands after a minute, and any command older than `retentionMs`. */
  async prune(retentionMs: number): Promise<void> {
    await this.o.pool.query(
      `DELETE FROM claude_a2a_commands
        WHERE replied_at < now() - interval '1 minute'
           OR created_at < now() - $1 * interval '1 millisecond'`,
      [retentionMs],
    );
  }

  close(): void {
    for (const off of this.unlisten) off();
    for (const wake of this.waiting.values()) wake();
  }
}
