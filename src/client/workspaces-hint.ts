/**
 * A client pointed at the root of a server with workspaces finds no agent card there (404):
 * it then asks `GET /agents` which workspaces there are, and says how to pick one.
 */

/** The sentence for a root that lists these workspaces (none: this caller may call none). Pure. */
export function workspacesHint(url: string, names: readonly string[]): string {
  const base = url.replace(/\/+$/, "");
  if (names.length === 0) {
    return `${base} serves workspaces, none of which this caller may call (its token or login is not in their callers).`;
  }
  const [first = ""] = names;
  return (
    `${base} serves several workspaces, not one agent: ${names.join(", ")}. ` +
    `Pick one with --workspace <name> (e.g. --workspace ${first}) or its URL (--url ${base}/agents/${first}/).`
  );
}

/** The URL of a workspace of the server at `url` (what `--workspace <name>` means). Pure. */
export const workspaceUrl = (url: string, name: string): string =>
  `${url.replace(/\/+$/, "")}/agents/${encodeURIComponent(name)}/`;

/** The card's 404, as the SDK's resolver words it. */
const CARD_NOT_FOUND = /Failed to fetch Agent Card.*\b404\b/s;

/**
 * When `err` is the card's 404 and the server lists workspaces: an Error saying which and how
 * to pick one. Otherwise undefined (the original error stands).
 */
export async function workspacesError(
  err: unknown,
  url: string,
  fetchImpl: typeof fetch,
): Promise<Error | undefined> {
  if (!CARD_NOT_FOUND.test(err instanceof Error ? err.message : String(err))) return undefined;
  try {
    const res = await fetchImpl(`${url.replace(/\/+$/, "")}/agents`, {
      headers: { accept: "application/json" },
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { workspaces?: unknown };
    if (!Array.isArray(body.workspaces)) return undefined;
    const names = body.workspaces.flatMap((w: unknown) => {
      const name = (w as { name?: unknown } | null)?.name;
      return typeof name === "string" ? [name] : [];
    });
    return new Error(workspacesHint(url, names));
  } catch {
    return undefined;
  }
}
