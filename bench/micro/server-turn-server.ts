/**
 * One side of `server-turn.ts`: a build's whole server (`startServer` of its `dist/`, its
 * production logger at info writing JSON lines to standard output, the default SQLite store in a
 * temp workspace), with Claude Code replaced by a scripted runtime in this process that answers
 * every send as the real one answers a short warm turn. Sends its URL to the parent, exits on
 * "exit" (and removes its workspace).
 *
 *   node --import tsx bench/micro/server-turn-server.ts <checkout> [config JSON]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type * as ServerModule from "../../src/app/server.js";
import type * as ConfigModule from "../../src/config/load.js";
import type * as Logging from "../../src/common/logging.js";
import {
  fakeQueryFactory,
  type ScriptedQuery,
} from "../../test/unit/claude/support/scripted-query.js";
import { sdk, streamedText } from "../../test/unit/claude/support/sdk-messages.js";
import { knownKeysOnly } from "../config-keys.js";
import { builtPath } from "./built-path.js";

const [rootArg = "", raw = "{}"] = process.argv.slice(2);
const root = resolve(rootArg);
const ANSWER = ["A reply ", "streamed in ", "a few chunks ", "for the ", "benchmark."];
const TOTALS = { costUsd: 0.00033, input: 10, output: 20 };

/** Answers each send of `query` as a warm turn, for as long as the query lives. */
async function answer(query: ScriptedQuery): Promise<void> {
  for (let index = 0; !query.closed; index++) {
    const stamp = String((await query.sentMessage(index)).uuid);
    const text = ANSWER.join("");
    query.emit(
      sdk.sessionState("running"),
      sdk.init(),
      ...streamedText("m", ANSWER, { stamp }),
      sdk.text("m", text, { stamp }),
      sdk.messageDelta(),
      sdk.messageStop(),
      sdk.result({ text, stamp, totals: TOTALS }),
      sdk.sessionState("idle"),
    );
  }
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, "close");
  return port;
}

const { startServer } = (await import(builtPath(root, "app/server.js"))) as typeof ServerModule;
const { resolveConfig } = (await import(builtPath(root, "config/load.js"))) as typeof ConfigModule;
const { createLogger } = (await import(builtPath(root, "common/logging.js"))) as typeof Logging;
const dir = mkdtempSync(join(tmpdir(), "server-turn-"));
const schema: unknown = JSON.parse(readFileSync(join(root, "config.schema.json"), "utf8"));
const given = knownKeysOnly(JSON.parse(raw) as Record<string, unknown>, schema).config as {
  server?: object;
};
const config = resolveConfig(
  { ...given, server: { ...given.server, port: await freePort() } },
  { file: join(dir, "c.json"), startDir: dir, overrides: { cwd: dir } },
);
const fake = fakeQueryFactory();
const server = await startServer({
  config,
  logger: createLogger({ level: "info", format: "json" }),
  queryFactory: (params) => {
    const query = fake.factory(params) as ScriptedQuery;
    void answer(query);
    return query;
  },
});
process.send?.({ url: server.url });
process.on("message", (m) => {
  if (m !== "exit") return;
  void server.close().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
