import {
  firePath,
  TRIGGERS_PATH,
  type FireAnswer,
  type TriggersListing,
} from "../../contract/triggers.js";
import { errorMessage } from "../connect.js";
import { session, type ClientEnv, type CommonOptions } from "../env.js";
import { EXIT } from "../render-end.js";
import { fireReport, triggersTable } from "../triggers-view.js";

/**
 * `claude-a2a triggers` and `claude-a2a triggers fire <name>`: the operator's triggers endpoints
 * (docs/triggers.md "Operating triggers"), plain HTTP beside the A2A bindings, with the same URL,
 * workspace and token as every command.
 */

export interface TriggersOptions extends CommonOptions {
  json?: boolean;
}

export async function triggersCommand(o: TriggersOptions, e: ClientEnv): Promise<number> {
  const s = session(o, e);
  try {
    const res = await call(s.url, TRIGGERS_PATH, "GET", token(o, e));
    if (!res.ok) return refused(e, res);
    const listing = (await res.json()) as TriggersListing;
    e.out(o.json ? `${JSON.stringify(listing)}\n` : triggersTable(listing));
    return EXIT.ok;
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}

export async function fireCommand(name: string, o: TriggersOptions, e: ClientEnv): Promise<number> {
  const s = session(o, e);
  try {
    const res = await call(s.url, firePath(name), "POST", token(o, e));
    // A firing a limit refused (429, 503) still answers its outcome as JSON.
    const body = (await res.json().catch(() => undefined)) as FireAnswer | undefined;
    if (body?.outcome === undefined) return refused(e, res, body);
    const report = fireReport(body, (id) => followCommand(id, o));
    if (res.ok) {
      e.out(o.json ? `${JSON.stringify(body)}\n` : report);
      return EXIT.ok;
    }
    e.err(`claude-a2a: ${report}`);
    return EXIT.failed;
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}

const token = (o: CommonOptions, e: ClientEnv): string | undefined => o.token ?? e.env.A2A_TOKEN;

function call(base: string, path: string, method: string, bearer: string | undefined) {
  return fetch(`${base}${path}`, {
    method,
    headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
  });
}

/** The server's refusal (403 not an operator, 404 no such trigger, 401 no token), said plainly. */
async function refused(e: ClientEnv, res: Response, read?: unknown): Promise<number> {
  const body = read ?? (await res.json().catch(() => undefined));
  const message = (body as { message?: unknown; error?: unknown } | undefined)?.message;
  const why = typeof message === "string" ? message : `HTTP ${res.status}`;
  const hint = res.status === 401 ? " Pass --token or set A2A_TOKEN (an operator's)." : "";
  e.err(`claude-a2a: ${why}${hint}\n`);
  return EXIT.failed;
}

/** The command that shows the task, with the URL and workspace this one was given. */
function followCommand(taskId: string, o: CommonOptions): string {
  const flags = [
    ...(o.url === undefined ? [] : [`--url ${o.url}`]),
    ...(o.workspace === undefined ? [] : [`--workspace ${o.workspace}`]),
  ];
  return ["claude-a2a task", taskId, ...flags].join(" ");
}
