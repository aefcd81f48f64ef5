import type {
  ChangeRequest,
  ChangeRequestInput,
  CommentTarget,
  Forge,
  PostedComment,
} from "./forge.js";
import { ForgeHttp, numberOf, urlOf, type FetchLike } from "./http.js";

/** GitLab's REST API v4 (gitlab.com or self-managed), authenticated with `PRIVATE-TOKEN`. */

export interface GitLabOptions {
  /** The API's root, e.g. https://gitlab.example.com/api/v4. */
  readonly baseUrl: string;
  /** The project's path ("group/sub/project") or numeric id. */
  readonly repository: string;
  readonly token: string;
  readonly tokenEnv: string;
  readonly fetch?: FetchLike;
}

export class GitLabForge implements Forge {
  readonly kind = "gitlab";
  readonly repository: string;
  private readonly http: ForgeHttp;
  private readonly project: string;

  constructor(o: GitLabOptions) {
    this.repository = o.repository;
    // A path is one URL-encoded segment ("group%2Fproject"), as GitLab's docs ask.
    this.project = `/projects/${encodeURIComponent(o.repository)}`;
    this.http = new ForgeHttp({
      forgeName: "GitLab",
      baseUrl: o.baseUrl.replace(/\/+$/, ""),
      token: o.token,
      tokenEnv: o.tokenEnv,
      headers: { "PRIVATE-TOKEN": o.token, Accept: "application/json", "User-Agent": "claude-a2a" },
      ...(o.fetch && { fetch: o.fetch }),
    });
  }

  async openOrUpdate(input: ChangeRequestInput): Promise<ChangeRequest> {
    const query = new URLSearchParams({ source_branch: input.branch, state: "opened" });
    const open = await this.http.call(
      "GET",
      `${this.project}/merge_requests?${query.toString()}`,
      `listing the open merge requests of ${input.branch} on ${this.repository}`,
    );
    const existing = Array.isArray(open) ? (open[0] as unknown) : undefined;
    if (existing !== undefined) {
      const iid = numberOf(existing, "iid");
      const updated = await this.http.call(
        "PUT",
        `${this.project}/merge_requests/${iid}`,
        `updating merge request !${iid} of ${this.repository}`,
        { title: input.title, description: input.body },
      );
      return { number: iid, url: urlOf(updated ?? existing, "web_url"), action: "updated" };
    }
    const created = await this.http.call(
      "POST",
      `${this.project}/merge_requests`,
      `opening a merge request of ${input.branch} into ${input.base} on ${this.repository}`,
      {
        source_branch: input.branch,
        target_branch: input.base,
        title: input.title,
        description: input.body,
      },
    );
    return { number: numberOf(created, "iid"), url: urlOf(created, "web_url"), action: "opened" };
  }

  async comment(target: CommentTarget, body: string): Promise<PostedComment> {
    const where = target.kind === "issue" ? "issues" : "merge_requests";
    const sign = target.kind === "issue" ? "#" : "!";
    const posted = await this.http.call(
      "POST",
      `${this.project}/${where}/${target.number}/notes`,
      `commenting on ${sign}${target.number} of ${this.repository}`,
      { body },
    );
    return { id: numberOf(posted, "id"), url: undefined };
  }

  async reach(): Promise<void> {
    await this.http.call("GET", this.project, `reading the project ${this.repository}`);
  }
}
