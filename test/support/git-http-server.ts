import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/**
 * A real git remote on 127.0.0.1: git's own `git http-backend` (CGI) behind a small HTTP server
 * that wants HTTP Basic auth with one token as the password, as GitHub and GitLab take a token.
 * It records each request and whether the right credential came with it.
 */

const HTTP_BACKEND = "/usr/lib/git-core/git-http-backend";

export interface GitHttpRequest {
  readonly method: string;
  readonly path: string;
  /** What came: none, the right token, or another credential. */
  readonly credential: "none" | "right" | "wrong";
  readonly user: string | undefined;
  readonly status: number;
}

export interface GitHttpServer {
  /** The URL of `repo` (a bare repository created under the root by `createRepo`). */
  urlOf(repo: string): string;
  /** Creates a bare repository `<name>.git` that accepts pushes; returns its path. */
  createRepo(name: string): string;
  readonly requests: GitHttpRequest[];
  /** The port, to know a URL where nothing listens once closed. */
  readonly port: number;
  close(): Promise<void>;
}

export async function startGitHttpServer(o: {
  root: string;
  token: string;
}): Promise<GitHttpServer> {
  const requests: GitHttpRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [user, ...rest] = auth ? Buffer.from(auth, "base64").toString("utf8").split(":") : [];
    const credential = auth === undefined ? "none" : rest.join(":") === o.token ? "right" : "wrong";
    const record = (status: number) =>
      requests.push({ method: req.method ?? "", path: url.pathname, credential, user, status });
    if (credential !== "right") {
      record(401);
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"', "Content-Type": "text/plain" });
      res.end("Unauthorized\n");
      req.resume();
      return;
    }
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: o.root,
        GIT_HTTP_EXPORT_ALL: "1",
        REMOTE_USER: user ?? "git",
        REMOTE_ADDR: "127.0.0.1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ""),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-length"] !== undefined && {
          CONTENT_LENGTH: req.headers["content-length"],
        }),
        ...(req.headers["content-encoding"] !== undefined && {
          HTTP_CONTENT_ENCODING: req.headers["content-encoding"],
        }),
        ...(req.headers["git-protocol"] !== undefined && {
          GIT_PROTOCOL: String(req.headers["git-protocol"]),
        }),
      },
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on("data", (c: Buffer) => chunks.push(c));
    cgi.on("close", () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf("\r\n\r\n");
      const headEnd = split >= 0 ? split : out.indexOf("\n\n");
      const sep = split >= 0 ? 4 : 2;
      const head = out.subarray(0, Math.max(headEnd, 0)).toString("utf8");
      const body = headEnd >= 0 ? out.subarray(headEnd + sep) : Buffer.alloc(0);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split(/\r?\n/)) {
        const i = line.indexOf(":");
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
        else headers[name] = value;
      }
      record(status);
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    urlOf: (repo) => `http://127.0.0.1:${port}/${repo}.git`,
    createRepo: (name) => {
      const path = join(o.root, `${name}.git`);
      execFileSync("git", ["init", "-q", "--bare", "-b", "main", path]);
      execFileSync("git", ["-C", path, "config", "http.receivepack", "true"]);
      return path;
    },
    requests,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
