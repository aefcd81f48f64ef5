import { Task, type TaskState } from "@a2a-js/sdk";
import { errorMessage } from "../connect.js";
import { session, type ClientEnv, type CommonOptions } from "../env.js";
import { parseState, stateName } from "../render.js";
import { EXIT } from "../render-end.js";
import { taskDetail, taskTable } from "../task-view.js";

export interface TasksOptions extends CommonOptions {
  context?: string;
  state?: string;
  limit?: string;
  json?: boolean;
}

export async function tasksCommand(o: TasksOptions, e: ClientEnv): Promise<number> {
  const s = session(o, e);
  let status: TaskState | 0 = 0;
  if (o.state !== undefined) {
    const parsed = parseState(o.state);
    if (parsed === undefined) {
      e.err(
        `claude-a2a: unknown --state "${o.state}": use submitted, working, input-required, completed, failed, canceled, rejected or auth-required\n`,
      );
      return EXIT.usage;
    }
    status = parsed;
  }
  const pageSize = o.limit === undefined ? 50 : Number(o.limit);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    e.err(`claude-a2a: --limit must be an integer from 1 to 100\n`);
    return EXIT.usage;
  }
  try {
    const client = await s.client();
    const res = await client.listTasks({
      tenant: "",
      contextId: o.context ?? "",
      status,
      pageSize,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    if (o.json) for (const t of res.tasks) e.out(`${JSON.stringify(Task.toJSON(t))}\n`);
    else {
      e.out(taskTable(res.tasks));
      if (res.nextPageToken)
        e.out(
          s.colors.dim(
            `(${res.totalSize} tasks in all; showing ${res.tasks.length}: use --limit)\n`,
          ),
        );
    }
    return EXIT.ok;
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}

export async function taskCommand(
  id: string,
  o: CommonOptions & { json?: boolean },
  e: ClientEnv,
): Promise<number> {
  const s = session(o, e);
  try {
    const task = await (await s.client()).getTask({ tenant: "", id, historyLength: undefined });
    e.out(o.json ? `${JSON.stringify(Task.toJSON(task))}\n` : taskDetail(task, s.colors));
    return EXIT.ok;
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}

export async function cancelCommand(id: string, o: CommonOptions, e: ClientEnv): Promise<number> {
  const s = session(o, e);
  try {
    const task = await (await s.client()).cancelTask({ tenant: "", id, metadata: undefined });
    e.out(`task ${task.id}: ${stateName(task.status?.state)}\n`);
    return EXIT.ok;
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
}
