/**
 * The server's refusal (401, 403) as the terminal client says it. The SDK's transports drop the
 * body of such an answer on some paths (a JSON-RPC stream reads `{ error, message }` as a
 * JSON-RPC error without a message: "An unexpected error occurred."; REST keeps only the status
 * line), so the client's fetch reads the refusal itself, before any transport sees it, and
 * throws it with the server's own reason.
 */

/** A 401 or 403 answer, with the server's reason when its body gave one. */
export class RefusedError extends Error {
  override readonly name = "RefusedError";
  constructor(
    readonly status: 401 | 403,
    readonly reason: string | undefined,
  ) {
    // The status in the text keeps `isDroppedConnection` from taking it for a dropped stream.
    super(`the agent refused the request (${status})${reason === undefined ? "" : `: ${reason}`}`);
  }
}

/**
 * The reason in a refusal's body: our server's `{ error, message }`, a REST error's
 * `{ error: { message } }`, a JSON-RPC error's `{ error: { message } }`; else a short plain
 * text. Undefined for an empty body or HTML. Pure.
 */
export function refusalReason(body: string): string | undefined {
  const text = body.trim();
  if (text === "") return undefined;
  let reason: unknown;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown } | null;
    const error = parsed?.error;
    reason =
      typeof parsed?.message === "string"
        ? parsed.message
        : typeof error === "object" && error !== null
          ? (error as { message?: unknown }).message
          : error;
  } catch {
    reason = text.startsWith("<") ? undefined : text;
  }
  if (typeof reason !== "string" || reason.trim() === "") return undefined;
  return reason.trim().split("\n")[0]?.slice(0, 300);
}

/** `base`, except that a 401 or 403 answer is thrown as a `RefusedError`. */
export function refusalFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 401 && response.status !== 403) return response;
    const body = await response.text().catch(() => "");
    throw new RefusedError(response.status, refusalReason(body));
  };
}
