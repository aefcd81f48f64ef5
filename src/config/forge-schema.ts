import { z } from "zod";
import { httpUrl, name } from "./schema-parts.js";

/**
 * A forge (GitHub or GitLab, hosted or self-hosted) and a git remote, as the server reaches them
 * with its own credentials (docs/forges.md): a trigger's result comment, a delivery's push and
 * pull request. The token is named by an environment variable, never written in the config.
 */

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_ERROR = "expected an environment variable name";

const envName = () => z.string({ error: ENV_ERROR }).regex(ENV_NAME, { error: ENV_ERROR });

/** GitHub's `owner/name`: letters, digits, `-`, `_` and `.`. */
const GITHUB_REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
/** GitLab's project: a numeric id or a path of one or more groups and the project. */
const GITLAB_PROJECT = /^(?:\d+|[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+)$/;

/** Where each forge's REST API is when `baseUrl` is unset. */
export const DEFAULT_API_URL = {
  github: "https://api.github.com",
  gitlab: "https://gitlab.com/api/v4",
} as const;

export const forgeSchema = z
  .strictObject({
    kind: z
      .enum(["github", "gitlab"], { error: 'expected "github" or "gitlab"' })
      .describe('"github": GitHub\'s REST API; "gitlab": GitLab\'s REST API (v4).'),
    baseUrl: httpUrl()
      .optional()
      .describe(
        "The REST API's root for a self-hosted forge: https://<host>/api/v3 for GitHub " +
          "Enterprise Server, https://<host>/api/v4 for GitLab. Unset: github.com or gitlab.com.",
      ),
    repository: name().describe(
      'GitHub: "owner/name"; GitLab: the project\'s path ("group/project", subgroups too) or ' +
        "its numeric id.",
    ),
    tokenEnv: envName().describe(
      "The environment variable holding the server's token for this forge; Claude never sees it.",
    ),
  })
  .superRefine((forge, ctx) => {
    const ok =
      forge.kind === "github"
        ? GITHUB_REPOSITORY.test(forge.repository)
        : GITLAB_PROJECT.test(forge.repository);
    if (!ok) {
      ctx.addIssue({
        code: "custom",
        path: ["repository"],
        message:
          forge.kind === "github"
            ? 'expected a GitHub repository as "owner/name"'
            : 'expected a GitLab project as "group/project" or its numeric id',
      });
    }
  })
  .describe("A forge the server calls with its own token (docs/forges.md).");

export const remoteSchema = z
  .strictObject({
    url: httpUrl()
      .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), {
        error: "expected a URL without credentials: the token comes from tokenEnv",
      })
      .describe("The remote's http(s) URL, e.g. https://github.com/owner/name.git."),
    tokenEnv: envName().describe(
      "The environment variable holding the token the server's own git sends to this remote.",
    ),
    username: name()
      .optional()
      .describe(
        'The user name sent with the token (HTTP Basic). Unset: "x-access-token" (GitHub); ' +
          'GitLab takes "oauth2" or any name with a personal or project access token.',
      ),
  })
  .describe("A git remote the server pushes to with its own credentials (docs/forges.md).");

export type ForgeConfig = z.output<typeof forgeSchema>;
export type RemoteConfig = z.output<typeof remoteSchema>;
