/** How `tasks` and `task` print tasks. Pure. */
import { Role, type Task } from "@a2a-js/sdk";
import type { Colors } from "./colors.js";
import { partsText } from "./message-parts.js";
import { stateName } from "./render.js";
import { summary, table } from "./table.js";
import { KIND } from "../contract/kinds.js";
import { OWNER_KEY } from "../contract/operator.js";
import { DIFF_MEDIA_TYPE } from "../contract/worktree.js";
import { delegatedAgentsOf } from "../contract/delegation.js";
import { formatUsd, usageOf } from "../contract/usage.js";
import { totalFigures, usageLines } from "./usage-view.js";

const firstUserText = (task: Task): string =>
  partsText(task.history.find((m) => m.role === Role.ROLE_USER)?.parts);

export function when(timestamp: string | undefined): string {
  if (!timestamp) return "";
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime())
    ? timestamp
    : d
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z");
}

/**
 * A task's cost once it has ended (`metadata.usage`, with what its peers reported); blank while
 * it runs or from other agents.
 */
function costOf(task: Task): string {
  const usage = usageOf(task.metadata);
  return usage === undefined ? "" : formatUsd(totalFigures(usage).costUsd);
}

/** The `tasks` table: newest first, as the server lists them. */
export function taskTable(tasks: readonly Task[]): string {
  if (tasks.length === 0) return "No tasks.\n";
  // An operator's list spans every caller: then it says whose each task is.
  const owners = tasks.some((t) => ownerOf(t) !== undefined);
  return table(
    ["ID", "STATE", "UPDATED", "CONTEXT", ...(owners ? ["OWNER"] : []), "ORIGIN", "COST", "TEXT"],
    tasks.map((t) => [
      t.id,
      stateName(t.status?.state),
      when(t.status?.timestamp),
      t.contextId,
      ...(owners ? [ownerOf(t) ?? ""] : []),
      typeof t.metadata?.origin === "string" ? t.metadata.origin : "",
      costOf(t),
      summary(firstUserText(t) || partsText(t.status?.message?.parts)),
    ]),
  );
}

/** `metadata.owner`: whose a task is, in what an operator reads. */
function ownerOf(task: Task): string | undefined {
  const owner: unknown = task.metadata?.[OWNER_KEY];
  return typeof owner === "string" ? owner : undefined;
}

/** `task ID`: its state, history and artifacts. */
export function taskDetail(task: Task, c: Colors): string {
  const lines: string[] = [
    `${c.bold("Task")}     ${task.id}`,
    `${c.bold("Context")}  ${task.contextId}`,
    `${c.bold("State")}    ${stateName(task.status?.state)}${task.status?.timestamp ? `  (${when(task.status.timestamp)})` : ""}`,
  ];
  if (typeof task.metadata?.origin === "string")
    lines.push(`${c.bold("Origin")}   ${task.metadata.origin}`);
  const owner = ownerOf(task);
  if (owner !== undefined) lines.push(`${c.bold("Owner")}    ${owner}`);
  const status = partsText(task.status?.message?.parts);
  if (status) lines.push(`${c.bold("Status")}   ${status}`);
  const usage = usageOf(task.metadata);
  if (usage !== undefined) lines.push(...usageLines(usage, c, delegatedAgentsOf(task.metadata)));
  lines.push("", c.bold(`History (${task.history.length})`));
  for (const m of task.history) {
    const who = m.role === Role.ROLE_USER ? "user " : "agent";
    const kind = typeof m.metadata?.kind === "string" ? c.dim(` [${m.metadata.kind}]`) : "";
    const text = partsText(m.parts);
    const data = m.parts.filter((p) => p.content?.$case === "data").length;
    const files = m.parts.filter((p) => p.content?.$case === "raw" || p.content?.$case === "url");
    const extra = [
      ...(data ? [`${data} data part(s)`] : []),
      ...files.map((p) => `file ${p.filename || "(unnamed)"}`),
    ];
    lines.push(
      `  ${c.cyan(who)}${kind} ${text.replace(/\n/g, "\n        ")}${extra.length ? c.dim(` (${extra.join(", ")})`) : ""}`,
    );
  }
  lines.push("", c.bold(`Artifacts (${task.artifacts.length})`));
  for (const a of task.artifacts) {
    const kind = typeof a.metadata?.kind === "string" ? a.metadata.kind : "artifact";
    if (kind === KIND.file) {
      const meta = a.metadata ?? {};
      lines.push(
        `  ${c.green("file")} ${String(meta.path ?? a.name)}${meta.operation ? c.dim(` (${String(meta.operation)}, ${String(meta.size ?? "?")} bytes)`) : ""}`,
      );
      continue;
    }
    lines.push(`  ${c.green(kind)} ${a.artifactId}${a.name ? c.dim(` ${a.name}`) : ""}`);
    const text = partsText(a.parts);
    if (text) lines.push(...text.split("\n").map((l) => (l === "" ? "" : `    ${l}`)));
    for (const p of a.parts) {
      if (p.content?.$case === "raw" || p.content?.$case === "url")
        lines.push(`    file ${p.filename || "(unnamed)"} (${p.mediaType || "unknown type"})`);
      // A worktree's diff is what the task changed: shown, as `git diff` would.
      if (p.content?.$case === "raw" && p.mediaType === DIFF_MEDIA_TYPE) {
        const diff = new TextDecoder().decode(p.content.value).replace(/\n$/, "");
        lines.push(...diff.split("\n").map((l) => (l === "" ? "" : `      ${l}`)));
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
