import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgeSchema } from "../../../src/config/forge-schema.js";
import { ForgeError, type Forge } from "../../../src/forge/forge.js";
import { errorText } from "../../../src/forge/http.js";
import { openForge } from "../../../src/forge/open.js";
import { startForgeFake, type ForgeFake } from "../../support/forge-fake.js";

const TOKEN = "forge-token-0123456789abcdef";
const env = { FORGE_TOKEN: TOKEN, WRONG_TOKEN: "not-the-token-42" };

let fake: ForgeFake;
beforeAll(async () => {
  fake = await startForgeFake({ token: TOKEN });
});
afterAll(() => fake.close());

function forgeOf(kind: "github" | "gitlab", repository: string, tokenEnv = "FORGE_TOKEN"): Forge {
  const baseUrl = kind === "github" ? fake.githubUrl : fake.gitlabUrl;
  const opened = openForge(forgeSchema.parse({ kind, baseUrl, repository, tokenEnv }), env);
  if (!opened.ok) throw new Error(opened.reason);
  return opened.forge;
}

const since = (n: number) => fake.requests.slice(n);

describe("GitHub", () => {
  it("opens a pull request with the given body, with GitHub's documented headers", async () => {
    const before = fake.requests.length;
    const pr = await forgeOf("github", "acme/widgets").openOrUpdate({
      branch: "claude-a2a/fix-1",
      base: "main",
      title: "Fix 1",
      body: "## Proof of work\n- npm test: 0",
    });
    expect(pr.action).toBe("opened");
    expect(pr.url).toBe(`https://github.example/acme/widgets/pull/${pr.number}`);
    const [list, create] = since(before);
    expect(list).toMatchObject({
      method: "GET",
      path: "/api/v3/repos/acme/widgets/pulls?head=acme%3Aclaude-a2a%2Ffix-1&state=open",
    });
    expect(create).toMatchObject({
      method: "POST",
      path: "/api/v3/repos/acme/widgets/pulls",
      body: {
        title: "Fix 1",
        head: "claude-a2a/fix-1",
        base: "main",
        body: "## Proof of work\n- npm test: 0",
      },
    });
    expect(create?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
    });
  });

  it("updates the pull request already open for the branch instead of opening another", async () => {
    const forge = forgeOf("github", "acme/widgets");
    const first = await forge.openOrUpdate({ branch: "b2", base: "main", title: "T", body: "one" });
    const before = fake.requests.length;
    const second = await forge.openOrUpdate({
      branch: "b2",
      base: "main",
      title: "T2",
      body: "two",
    });
    expect(second).toEqual({ number: first.number, url: first.url, action: "updated" });
    expect(since(before).map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "GET /api/v3/repos/acme/widgets/pulls",
      `PATCH /api/v3/repos/acme/widgets/pulls/${first.number}`,
    ]);
    expect(fake.changeRequests.get("acme/widgets:b2")).toMatchObject({ title: "T2", body: "two" });
    expect([...fake.changeRequests.keys()].filter((k) => k === "acme/widgets:b2")).toHaveLength(1);
  });

  it("comments on an issue or pull request through the issue comments endpoint", async () => {
    const posted = await forgeOf("github", "acme/widgets").comment(
      { kind: "pull-request", number: 12 },
      "done",
    );
    expect(posted.url).toContain("/issues/12#issuecomment-");
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/api/v3/repos/acme/widgets/issues/12/comments",
      body: { body: "done" },
    });
  });

  it("a 401 is a clear error naming the variable, without the token", async () => {
    const err = await forgeOf("github", "acme/widgets", "WRONG_TOKEN")
      .comment({ kind: "issue", number: 1 }, "x")
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ForgeError);
    expect((err as ForgeError).failure).toBe("unauthorized");
    expect((err as ForgeError).message).toMatch(
      /GitHub answered 401: Bad credentials while commenting on #1 of acme\/widgets\. The token in WRONG_TOKEN was refused/,
    );
    expect((err as ForgeError).message).not.toContain(env.WRONG_TOKEN);
  });

  it("a 422 says what the forge said, and a token echoed in it is redacted", () => {
    const text = errorText({
      forgeName: "GitHub",
      baseUrl: "https://api.github.com",
      tokenEnv: "GH_TOKEN",
      token: "sekrit-1",
      what: "opening a pull request",
      status: 422,
      answer: JSON.stringify({
        message: "Validation Failed",
        errors: [{ message: "A pull request already exists for dup (sekrit-1)." }],
      }),
    });
    expect(text).toBe(
      "GitHub answered 422: Validation Failed; A pull request already exists for dup (***) " +
        "while opening a pull request. The forge refused the request as it stands.",
    );
  });

  it("reaches the repository, and an unreachable API is a clear error", async () => {
    await expect(forgeOf("github", "acme/widgets").reach()).resolves.toBeUndefined();
    const down = openForge(
      forgeSchema.parse({
        kind: "github",
        baseUrl: "http://127.0.0.1:1/api/v3",
        repository: "a/b",
        tokenEnv: "FORGE_TOKEN",
      }),
      env,
    );
    if (!down.ok) throw new Error(down.reason);
    const err = await down.forge.reach().catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: "unreachable" });
    expect((err as Error).message).toMatch(
      /GitHub API at http:\/\/127\.0\.0\.1:1\/api\/v3 is unreachable while reading the repository a\/b/,
    );
  });
});

describe("GitLab", () => {
  it("opens a merge request, then updates it for the same branch", async () => {
    const forge = forgeOf("gitlab", "group/sub/project");
    const before = fake.requests.length;
    const opened = await forge.openOrUpdate({
      branch: "feature",
      base: "main",
      title: "F",
      body: "body 1",
    });
    const updated = await forge.openOrUpdate({
      branch: "feature",
      base: "main",
      title: "F",
      body: "body 2",
    });
    expect(opened.action).toBe("opened");
    expect(updated).toEqual({ number: opened.number, url: opened.url, action: "updated" });
    const calls = since(before);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v4/projects/group%2Fsub%2Fproject/merge_requests?source_branch=feature&state=opened",
      "POST /api/v4/projects/group%2Fsub%2Fproject/merge_requests",
      "GET /api/v4/projects/group%2Fsub%2Fproject/merge_requests?source_branch=feature&state=opened",
      `PUT /api/v4/projects/group%2Fsub%2Fproject/merge_requests/${opened.number}`,
    ]);
    expect(calls[1]?.body).toEqual({
      source_branch: "feature",
      target_branch: "main",
      title: "F",
      description: "body 1",
    });
    expect(calls[1]?.headers["private-token"]).toBe(TOKEN);
    expect(calls[1]?.headers.authorization).toBeUndefined();
    expect(fake.changeRequests.get("group/sub/project:feature")?.body).toBe("body 2");
  });

  it("comments on an issue and on a merge request as notes", async () => {
    const forge = forgeOf("gitlab", "group/project");
    await forge.comment({ kind: "issue", number: 3 }, "on the issue");
    await forge.comment({ kind: "pull-request", number: 4 }, "on the MR");
    expect(fake.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v4/projects/group%2Fproject/issues/3/notes",
      "POST /api/v4/projects/group%2Fproject/merge_requests/4/notes",
    ]);
  });

  it("a 401 is a clear error without the token", async () => {
    const err = await forgeOf("gitlab", "group/project", "WRONG_TOKEN")
      .reach()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: "unauthorized", status: 401 });
    expect((err as Error).message).toMatch(
      /GitLab answered 401: 401 Unauthorized while reading the project group\/project\. The token in WRONG_TOKEN was refused/,
    );
    expect((err as Error).message).not.toContain(env.WRONG_TOKEN);
  });
});

describe("the config", () => {
  it("refuses a repository of the wrong shape and an unset token variable", () => {
    expect(
      forgeSchema.safeParse({ kind: "github", repository: "just-a-name", tokenEnv: "T" }).error
        ?.issues[0]?.message,
    ).toBe('expected a GitHub repository as "owner/name"');
    expect(forgeSchema.safeParse({ kind: "gitlab", repository: "42", tokenEnv: "T" }).success).toBe(
      true,
    );
    expect(
      openForge(forgeSchema.parse({ kind: "gitlab", repository: "g/p", tokenEnv: "NOPE" }), {}),
    ).toEqual({
      ok: false,
      reason: "the environment variable NOPE (tokenEnv) is not set",
    });
  });
});
