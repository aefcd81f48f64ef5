/**
 * Reading the docs' tables of answers, and the raw answers of the running server, for
 * test/e2e/a2a-documented-answers.test.ts.
 */
import { connect } from "node:net";
import { docPage } from "./pages.js";

export interface Answer {
  readonly status: number;
  readonly body?: { error?: { code?: number; message?: string } };
}

/** The rows of the table of `page` whose header starts with `header`, as trimmed cells. */
export function documentedRows(page = docPage("bindings.md"), header = "| Request "): string[][] {
  const lines = page.slice(page.indexOf(header)).split("\n");
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** What a JSON-RPC cell says: the error code, the HTTP statuses (default 200), a quoted text. */
export function jsonRpcExpectation(cell: string) {
  const code = /`(-\d+)`/.exec(cell)?.[1];
  const http = /HTTP ([\d /]+)/.exec(cell)?.[1];
  const text = [...cell.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1])
    .find((t) => !/^-\d+$/.test(t ?? ""));
  return {
    code: code === undefined ? undefined : Number(code),
    statuses: http === undefined ? [200] : http.split("/").map((s) => Number(s.trim())),
    text,
  };
}

export const statusesOf = (cell: string): number[] => (cell.match(/\d{3}/g) ?? []).map(Number);

/** A documented text (`<n>` for any value) as a pattern. */
export const textPattern = (text: string) =>
  new RegExp(
    `^${text
      .split(/(<[^>]+>)/)
      .map((p) => (/^<[^>]+>$/.test(p) ? "[\\s\\S]*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  );

export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Answer["body"] };
  } catch {
    return { status: res.status };
  }
}

/** Raw bytes to the server, its status line's code. */
export function rawStatus(port: number, bytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("end", () => reject(new Error(`no status line: ${got}`)));
  });
}
