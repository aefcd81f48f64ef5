import { z } from "zod";
import { intBetween } from "./schema-parts.js";

/**
 * `fleet`: several servers on one PostgreSQL store (docs/storage.md "Several servers"). Read only with
 * `store.type: "postgres"`; with SQLite or memory there is one server and none of it runs.
 */
export const fleetSchema = z
  .strictObject({
    leaseMs: intBetween(1_000, 3_600_000)
      .default(30_000)
      .describe(
        "How long an instance's lease lasts without a renewal. Once it has expired, another " +
          "instance fails the tasks that instance ran (it is taken for dead).",
      ),
    heartbeatMs: intBetween(100, 600_000)
      .default(5_000)
      .describe(
        "How often an instance renews its lease (and sweeps expired ones); below fleet.leaseMs.",
      ),
    eventRetentionMs: intBetween(1_000, 86_400_000)
      .default(600_000)
      .describe(
        "Relayed task events are deleted once every subscriber has read them, and at the latest " +
          "after this long.",
      ),
    commandTimeoutMs: intBetween(100, 600_000)
      .default(10_000)
      .describe(
        "How long a cancel or an answer forwarded to the task's owner instance waits for the " +
          "owner to take it up before the client gets an error.",
      ),
  })
  .refine((f) => f.heartbeatMs < f.leaseMs, {
    error: "fleet.heartbeatMs must be below fleet.leaseMs",
    path: ["heartbeatMs"],
  })
  .describe(
    'Several servers on one PostgreSQL store: read only with store.type "postgres"; with ' +
      "SQLite or memory there is one server and none of it runs.",
  );
