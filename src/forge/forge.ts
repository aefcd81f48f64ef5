/**
 * What the server asks of a forge (docs/forges.md): a pull or merge request for a branch, opened
 * or updated, and a comment on an issue, pull request or merge request. Each implementation
 * calls one forge's REST API with the server's own token.
 */

/** What a comment is posted on. GitHub comments on issues and pull requests alike. */
export type CommentTarget =
  | { readonly kind: "issue"; readonly number: number }
  | { readonly kind: "pull-request"; readonly number: number };

export interface ChangeRequestInput {
  /** The branch with the work (GitHub `head`, GitLab `source_branch`). */
  readonly branch: string;
  /** The branch it would merge into (GitHub `base`, GitLab `target_branch`). */
  readonly base: string;
  readonly title: string;
  /** Markdown. */
  readonly body: string;
}

export interface ChangeRequest {
  /** GitHub's pull request number, GitLab's merge request iid. */
  readonly number: number;
  /** Its page on the forge. */
  readonly url: string;
  /** Whether this call opened it, or updated the one already open for the branch. */
  readonly action: "opened" | "updated";
}

export interface PostedComment {
  readonly id: number;
  /** Its page on the forge, when the forge says (GitHub `html_url`). */
  readonly url: string | undefined;
}

export interface Forge {
  readonly kind: "github" | "gitlab";
  /** The repository or project as configured. */
  readonly repository: string;
  /** Opens a pull (merge) request for the branch, or updates the one already open for it. */
  openOrUpdate(input: ChangeRequestInput): Promise<ChangeRequest>;
  comment(target: CommentTarget, body: string): Promise<PostedComment>;
  /** Reads the repository (project) with the token: it exists and the token may see it. */
  reach(): Promise<void>;
}

/** Why a forge call failed, for a caller that acts on it (a delivery's outcome, `--check`). */
export type ForgeFailure =
  "unauthorized" | "forbidden" | "not-found" | "invalid" | "unreachable" | "unexpected";

/** A forge call that failed; its message never holds the token. */
export class ForgeError extends Error {
  constructor(
    readonly failure: ForgeFailure,
    message: string,
    /** The HTTP status, when the forge answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "ForgeError";
  }
}
