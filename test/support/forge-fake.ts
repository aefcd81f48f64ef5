import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for the few GitHub and GitLab REST endpoints the server calls, with their
 * documented request and answer shapes: GitHub under /api/v3 (as Enterprise Server serves it),
 * GitLab under /api/v4. It records every request (method, path, headers, parsed body), keeps the
 * pull/merge requests and comments it was given, and answers 401 when the token is not the one
 * it was started with (or `refuseAll` is set), as the forges do.
 */

export interface ForgeRequest {
  readonly method: string;
  /** The path with its query string. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

interface StoredRequest {
  number: number;
  branch: string;
  base: string;
  title: string;
  body: string;
  state: "open";
}

export interface ForgeComment {
  readonly forge: "github" | "gitlab";
  readonly repository: string;
  /** GitHub: "issue" for every issue comment; GitLab: "issue" or "merge_request". */
  readonly on: "issue" | "merge_request";
  readonly number: number;
  readonly body: string;
  /** The credential it came with: GitHub's bearer token or GitLab's PRIVATE-TOKEN. */
  readonly token: string | undefined;
}

export interface ForgeFake {
  /** GitHub's API root here, for `baseUrl`. */
  readonly githubUrl: string;
  /** GitLab's API root here, for `baseUrl`. */
  readonly gitlabUrl: string;
  readonly requests: ForgeRequest[];
  readonly comments: ForgeComment[];
  /** The pull (merge) requests opened, by "<repository>:<branch>". */
  readonly changeRequests: ReadonlyMap<string, StoredRequest>;
  /** Answer 401 to everything from now on. */
  refuseAll: boolean;
  /** Resolves with the first comment (or the n-th, 1-based) once it arrived. */
  waitForComment(n?: number): Promise<ForgeComment>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Answer = { status: number; body: unknown };

export async function startForgeFake(o: { token: string }): Promise<ForgeFake> {
  const requests: ForgeRequest[] = [];
  const comments: ForgeComment[] = [];
  const waiters: { n: number; resolve: (c: ForgeComment) => void }[] = [];
  const changeRequests = new Map<string, StoredRequest>();
  let nextNumber = 1;
  let nextId = 1000;
  const state = { refuseAll: false };

  const addComment = (c: ForgeComment): void => {
    comments.push(c);
    for (const w of waiters.splice(0)) {
      if (comments.length >= w.n) w.resolve(comments[w.n - 1] as ForgeComment);
      else waiters.push(w);
    }
  };

  const github = (method: string, path: string, query: URLSearchParams, body: Json): Answer => {
    const repo = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    if (!repo) return notFound("github");
    const full = `${decodeURIComponent(repo[1] ?? "")}/${decodeURIComponent(repo[2] ?? "")}`;
    const rest = repo[3] ?? "";
    const htmlBase = `https://github.example/${full}`;
    const pull = (r: StoredRequest) => ({
      number: r.number,
      html_url: `${htmlBase}/pull/${r.number}`,
      state: r.state,
      title: r.title,
      body: r.body,
      head: { ref: r.branch, label: `${full.split("/")[0]}:${r.branch}` },
      base: { ref: r.base },
    });
    if (method === "GET" && rest === "") {
      return {
        status: 200,
        body: { id: 1, full_name: full, private: true, default_branch: "main" },
      };
    }
    if (method === "GET" && rest === "/pulls") {
      const [owner, branch] = (query.get("head") ?? "").split(":");
      const found = changeRequests.get(`${full}:${branch ?? ""}`);
      const wanted = query.get("state") ?? "open";
      const list = found && owner === full.split("/")[0] && wanted === "open" ? [pull(found)] : [];
      return { status: 200, body: list };
    }
    if (method === "POST" && rest === "/pulls") {
      const { title, head, base: into, body: text } = body;
      if (typeof title !== "string" || typeof head !== "string" || typeof into !== "string") {
        return {
          status: 422,
          body: {
            message: "Validation Failed",
            errors: [{ message: "title, head and base are required" }],
          },
        };
      }
      if (changeRequests.has(`${full}:${head}`)) {
        return {
          status: 422,
          body: {
            message: "Validation Failed",
            errors: [{ message: `A pull request already exists for ${head}.` }],
          },
        };
      }
      const r: StoredRequest = {
        number: nextNumber++,
        branch: head,
        base: into,
        title,
        body: typeof text === "string" ? text : "",
        state: "open",
      };
      changeRequests.set(`${full}:${head}`, r);
      return { status: 201, body: pull(r) };
    }
    const patch = /^\/pulls\/(\d+)$/.exec(rest);
    if (method === "PATCH" && patch) {
      const r = [...changeRequests.values()].find((c) => c.number === Number(patch[1]));
      if (!r) return notFound("github");
      if (typeof body.title === "string") r.title = body.title;
      if (typeof body.body === "string") r.body = body.body;
      return { status: 200, body: pull(r) };
    }
    const issueComment = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (method === "POST" && issueComment) {
      if (typeof body.body !== "string") {
        return {
          status: 422,
          body: { message: "Validation Failed", errors: [{ message: "body is required" }] },
        };
      }
      const id = nextId++;
      const number = Number(issueComment[1]);
      return {
        status: 201,
        body: { id, html_url: `${htmlBase}/issues/${number}#issuecomment-${id}`, body: body.body },
      };
    }
    return notFound("github");
  };

  const gitlab = (method: string, path: string, query: URLSearchParams, body: Json): Answer => {
    const project = /^\/projects\/([^/]+)(\/.*)?$/.exec(path);
    if (!project) return notFound("gitlab");
    const id = decodeURIComponent(project[1] ?? "");
    const rest = project[2] ?? "";
    const web = `https://gitlab.example/${id}`;
    const mr = (r: StoredRequest) => ({
      iid: r.number,
      web_url: `${web}/-/merge_requests/${r.number}`,
      state: "opened",
      title: r.title,
      description: r.body,
      source_branch: r.branch,
      target_branch: r.base,
    });
    if (method === "GET" && rest === "") {
      return { status: 200, body: { id: 7, path_with_namespace: id, default_branch: "main" } };
    }
    if (method === "GET" && rest === "/merge_requests") {
      const found = changeRequests.get(`${id}:${query.get("source_branch") ?? ""}`);
      return { status: 200, body: found && query.get("state") === "opened" ? [mr(found)] : [] };
    }
    if (method === "POST" && rest === "/merge_requests") {
      const { source_branch: source, target_branch: target, title, description } = body;
      if (typeof source !== "string" || typeof target !== "string" || typeof title !== "string") {
        return { status: 400, body: { error: "source_branch, target_branch, title are missing" } };
      }
      if (changeRequests.has(`${id}:${source}`)) {
        return {
          status: 409,
          body: {
            message: [`Another open merge request already exists for this source branch: !1`],
          },
        };
      }
      const r: StoredRequest = {
        number: nextNumber++,
        branch: source,
        base: target,
        title,
        body: typeof description === "string" ? description : "",
        state: "open",
      };
      changeRequests.set(`${id}:${source}`, r);
      return { status: 201, body: mr(r) };
    }
    const put = /^\/merge_requests\/(\d+)$/.exec(rest);
    if (method === "PUT" && put) {
      const r = [...changeRequests.values()].find((c) => c.number === Number(put[1]));
      if (!r) return notFound("gitlab");
      if (typeof body.title === "string") r.title = body.title;
      if (typeof body.description === "string") r.body = body.description;
      return { status: 200, body: mr(r) };
    }
    const note = /^\/(issues|merge_requests)\/(\d+)\/notes$/.exec(rest);
    if (method === "POST" && note) {
      if (typeof body.body !== "string") return { status: 400, body: { error: "body is missing" } };
      return { status: 201, body: { id: nextId++, body: body.body, system: false } };
    }
    return notFound("gitlab");
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const method = req.method ?? "GET";
      requests.push({ method, path: `${url.pathname}${url.search}`, headers: req.headers, body });
      const json = (typeof body === "object" && body !== null ? body : {}) as Json;
      const isGitHub = url.pathname.startsWith("/api/v3/");
      const isGitLab = url.pathname.startsWith("/api/v4/");
      const token = isGitHub
        ? /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
        : req.headers["private-token"]?.toString();
      let answer: Answer;
      if (!isGitHub && !isGitLab) answer = { status: 404, body: { message: "Not Found" } };
      else if (state.refuseAll || token !== o.token) {
        answer = isGitHub
          ? {
              status: 401,
              body: {
                message: "Bad credentials",
                documentation_url: "https://docs.github.com/rest",
              },
            }
          : { status: 401, body: { message: "401 Unauthorized" } };
      } else {
        const path = url.pathname.slice("/api/v3".length);
        answer = isGitHub
          ? github(method, path, url.searchParams, json)
          : gitlab(method, path, url.searchParams, json);
        if (answer.status === 201 && /\/(comments|notes)$/.test(path)) {
          const m = isGitHub
            ? /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path)
            : /^\/projects\/([^/]+)\/(issues|merge_requests)\/(\d+)\/notes$/.exec(path);
          if (m) {
            addComment({
              forge: isGitHub ? "github" : "gitlab",
              repository: isGitHub
                ? `${decodeURIComponent(m[1] ?? "")}/${decodeURIComponent(m[2] ?? "")}`
                : decodeURIComponent(m[1] ?? ""),
              on: isGitHub || m[2] === "issues" ? "issue" : "merge_request",
              number: Number(m[3]),
              body: String(json.body),
              token,
            });
          }
        }
      }
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    githubUrl: `${base}/api/v3`,
    gitlabUrl: `${base}/api/v4`,
    requests,
    comments,
    changeRequests,
    get refuseAll() {
      return state.refuseAll;
    },
    set refuseAll(v: boolean) {
      state.refuseAll = v;
    },
    waitForComment: (n = 1) =>
      comments.length >= n
        ? Promise.resolve(comments[n - 1] as ForgeComment)
        : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function notFound(forge: "github" | "gitlab"): Answer {
  return forge === "github"
    ? {
        status: 404,
        body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" },
      }
    : { status: 404, body: { message: "404 Project Not Found" } };
}
