import { asRecord } from "../common/json.js";

/** What a request's log line names: the A2A method and the task and context it concerns. */
export interface RequestIds {
  rpc?: string;
  taskId?: string;
  contextId?: string;
}

const str = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v.slice(0, 100) : undefined;

/**
 * Ids from a request body (JSON-RPC or REST), its REST path, and its JSON answer; the answer wins
 * (a new task's ids exist only there). Never reads anything but ids and the method name. Pure.
 */
export function requestIds(body: unknown, path: string, answer: unknown): RequestIds {
  const out: RequestIds = {};
  const request = asRecord(body);
  const rpc = str(request?.method);
  if (rpc !== undefined && request?.jsonrpc === "2.0") out.rpc = rpc;
  const params = asRecord(request?.params) ?? request;
  const message = asRecord(params?.message);
  out.taskId = str(message?.taskId) ?? str(params?.taskId) ?? (rpc ? str(params?.id) : undefined);
  out.contextId = str(message?.contextId) ?? str(params?.contextId);
  const restTask = /\/tasks\/([^/:]+)/.exec(path)?.[1];
  if (out.taskId === undefined && restTask !== undefined) out.taskId = restTask.slice(0, 100);

  const result = asRecord(asRecord(answer)?.result) ?? asRecord(answer);
  const task = asRecord(result?.task) ?? asRecord(result?.message) ?? result;
  const answeredTask = str(task?.id) ?? str(task?.taskId);
  const answeredContext = str(task?.contextId);
  if (answeredTask !== undefined && (task?.status !== undefined || task?.taskId !== undefined)) {
    out.taskId = answeredTask;
  }
  if (answeredContext !== undefined) out.contextId = answeredContext;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}
