import type {
  ChangeRequest,
  ChangeRequestInput,
  CommentTarget,
  Forge,
  PostedComment,
} from "./forge.js";
import { ForgeHttp, numberOf, urlOf, type FetchLike } from "./http.js";

/**
 * GitHub's REST API (github.com or Enterprise Server's /api/v3), with the headers its docs ask
 * for: `Authorization: Bearer`, `Accept: application/vnd.github+json` and the API version.
 */

export const GITHUB_API_VERSION = "2022-11-28";

export interface GitHubOptions {
  readonly baseUrl: string;
  /** "owner/name". */
  readonly repository: string;
  readonly token: string;
  readonly tokenEnv: string;
  readonly fetch?: FetchLike;
}

export class GitHubForge implements Forge {
  readonly kind = "github";
  readonly repository: string;
  private readonly http: ForgeHttp;
  private readonly owner: string;
  private readonly repoPath: string;

  constructor(o: GitHubOptions) {
    this.repository = o.repository;
    const [owner = "", name = ""] = o.repository.split("/");
    this.owner = owner;
    this.repoPath = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    this.http = new ForgeHttp({
      forgeName: "GitHub",
      baseUrl: o.baseUrl.replace(/\/+$/, ""),
      token: o.token,
      tokenEnv: o.tokenEnv,
      headers: {
        Authorization: `Bearer ${o.token}`,
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": GITHUB_API_VERSION,
        "User-Agent": "claude-a2a",
      },
      ...(o.fetch && { fetch: o.fetch }),
    });
  }

  async openOrUpdate(input: ChangeRequestInput): Promise<ChangeRequest> {
    const head = `${this.owner}:${input.branch}`;
    const query = new URLSearchParams({ head, state: "open" });
    const open = await this.http.call(
      "GET",
      `${this.repoPath}/pulls?${query.toString()}`,
      `listing the open pull requests of ${head} on ${this.repository}`,
    );
    const existing = Array.isArray(open) ? (open[0] as unknown) : undefined;
    if (existing !== undefined) {
      const number = numberOf(existing, "number");
      const updated = await this.http.call(
        "PATCH",
        `${this.repoPath}/pulls/${number}`,
        `updating pull request #${number} of ${this.repository}`,
        { title: input.title, body: input.body },
      );
      return { number, url: urlOf(updated ?? existing, "html_url"), action: "updated" };
    }
    const created = await this.http.call(
      "POST",
      `${this.repoPath}/pulls`,
      `opening a pull request of ${input.branch} into ${input.base} on ${this.repository}`,
      { title: input.title, head: input.branch, base: input.base, body: input.body },
    );
    return {
      number: numberOf(created, "number"),
      url: urlOf(created, "html_url"),
      action: "opened",
    };
  }

  async comment(target: CommentTarget, body: string): Promise<PostedComment> {
    // A pull request is an issue to GitHub: its conversation's comments are issue comments.
    const posted = await this.http.call(
      "POST",
      `${this.repoPath}/issues/${target.number}/comments`,
      `commenting on #${target.number} of ${this.repository}`,
      { body },
    );
    return { id: numberOf(posted, "id"), url: urlOf(posted, "html_url") };
  }

  async reach(): Promise<void> {
    await this.http.call("GET", this.repoPath, `reading the repository ${this.repository}`);
  }
}
