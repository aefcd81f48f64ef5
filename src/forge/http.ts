import { ForgeError, type ForgeFailure } from "./forge.js";

/**
 * One forge's REST calls: JSON in and out, a time limit, and every failure turned into a
 * ForgeError whose text says what to do and never holds the token.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ForgeHttpOptions {
  /** "GitHub" or "GitLab": how messages name the forge. */
  readonly forgeName: string;
  /** The REST API's root, without a trailing slash. */
  readonly baseUrl: string;
  readonly token: string;
  /** The variable the token came from, named in errors so the fix is clear. */
  readonly tokenEnv: string;
  /** The headers of every call, authorization included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch?: FetchLike;
  /** One call's time limit (default 15 s). */
  readonly timeoutMs?: number;
}

export type Method = "GET" | "POST" | "PATCH" | "PUT";

export class ForgeHttp {
  private readonly fetch: FetchLike;

  constructor(private readonly o: ForgeHttpOptions) {
    this.fetch = o.fetch ?? ((url, init) => fetch(url, init));
  }

  /** The parsed JSON answer of a 2xx, else a ForgeError; `what` says what was being done. */
  async call(method: Method, path: string, what: string, body?: unknown): Promise<unknown> {
    const url = `${this.o.baseUrl}${path}`;
    let res: Response;
    try {
      res = await this.fetch(url, {
        method,
        headers: {
          ...this.o.headers,
          ...(body !== undefined && { "Content-Type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
        redirect: "error",
      });
    } catch (err) {
      const cause = redact((err as Error).cause ?? err, this.o.token);
      throw new ForgeError(
        "unreachable",
        `${this.o.forgeName} API at ${this.o.baseUrl} is unreachable while ${what}: ${cause}`,
      );
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) {
      const failure = failureOf(res.status);
      throw new ForgeError(
        failure,
        errorText({ ...this.o, what, status: res.status, answer: text }),
        res.status,
      );
    }
    if (text === "") return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ForgeError(
        "unexpected",
        `${this.o.forgeName} answered ${what} with something that is not JSON.`,
        res.status,
      );
    }
  }
}

/** The failure an HTTP status means. Pure. */
export function failureOf(status: number): ForgeFailure {
  switch (status) {
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not-found";
    case 400:
    case 409:
    case 422:
      return "invalid";
    default:
      return "unexpected";
  }
}

/** What the forge's error body says: its `message` (and GitHub's `errors[].message`). Pure. */
export function forgeMessage(answer: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { message, errors, error } = value as Record<string, unknown>;
  const main =
    typeof message === "string"
      ? message
      : typeof error === "string"
        ? error
        : Array.isArray(message)
          ? message.filter((m) => typeof m === "string").join("; ")
          : undefined;
  const details = Array.isArray(errors)
    ? errors.flatMap((e: unknown) => {
        const m = typeof e === "object" && e !== null ? (e as Record<string, unknown>).message : e;
        return typeof m === "string" ? [m] : [];
      })
    : [];
  const all = [main, ...details].filter((m): m is string => m !== undefined && m !== "");
  return all.length > 0 ? all.join("; ").slice(0, 500) : undefined;
}

/** The text of a refused call: what happened and what to do, without the token. Pure. */
export function errorText(o: {
  forgeName: string;
  baseUrl: string;
  tokenEnv: string;
  token: string;
  what: string;
  status: number;
  answer: string;
}): string {
  const said = forgeMessage(o.answer);
  const quoted = said === undefined ? "" : `: ${redact(said, o.token).replace(/\.+$/, "")}`;
  const head = `${o.forgeName} answered ${o.status}${quoted} while ${o.what}`;
  switch (failureOf(o.status)) {
    case "unauthorized":
      return `${head}. The token in ${o.tokenEnv} was refused: check that it is set, valid and not expired.`;
    case "forbidden":
      return `${head}. The token in ${o.tokenEnv} lacks a permission this needs (or a rate limit was hit).`;
    case "not-found":
      return `${head}. It does not exist at ${o.baseUrl}, or the token in ${o.tokenEnv} cannot see it.`;
    case "invalid":
      return `${head}. The forge refused the request as it stands.`;
    case "unreachable":
    case "unexpected":
      return `${head}.`;
  }
}

/** `value`'s text with every occurrence of the token (and its base64) replaced. Pure. */
export function redact(value: unknown, token: string): string {
  let text = value instanceof Error ? value.message : String(value);
  if (token === "") return text;
  for (const secret of [token, Buffer.from(token).toString("base64")]) {
    text = text.split(secret).join("***");
  }
  return text;
}

/** A positive integer field of a forge's answer, or a ForgeError. */
export function numberOf(value: unknown, key: string): number {
  const n =
    typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  if (typeof n === "number" && Number.isSafeInteger(n)) return n;
  throw new ForgeError("unexpected", `the forge's answer has no "${key}" number`);
}

/** A URL field of a forge's answer ("" when it has none: a link is a nicety). */
export function urlOf(value: unknown, key: string): string {
  const u =
    typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  return typeof u === "string" ? u : "";
}
