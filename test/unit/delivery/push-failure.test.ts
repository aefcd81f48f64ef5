import { describe, expect, it } from "vitest";
import { pushGitEnv } from "../../../src/delivery/push/push-branch.js";
import {
  branchProblem,
  classifyPushOutput,
  safeTail,
} from "../../../src/delivery/push/push-failure.js";

describe("what a failed push means", () => {
  it.each([
    ["fatal: Authentication failed for 'https://h/r.git/'", "unauthorized"],
    ["fatal: could not read Username for 'https://h': terminal prompts disabled", "unauthorized"],
    ["error: The requested URL returned error: 403", "forbidden"],
    [
      "fatal: unable to access 'http://127.0.0.1:1/r.git/': Failed to connect to 127.0.0.1 port 1",
      "unreachable",
    ],
    ["fatal: unable to access 'https://nope/': Could not resolve host: nope", "unreachable"],
    ["!\trefs/heads/b:refs/heads/b\t[rejected] (non-fast-forward)", "non-fast-forward"],
    ["!\trefs/heads/b:refs/heads/b\t[rejected] (fetch first)", "non-fast-forward"],
    ["!\trefs/heads/b:refs/heads/b\t[remote rejected] (pre-receive hook declined)", "rejected"],
    ["something else entirely", "failed"],
  ])("%s → %s", (output, failure) => {
    expect(classifyPushOutput(output)).toBe(failure);
  });

  it("quotes git's last lines with every secret replaced", () => {
    expect(safeTail("To http://h/r.git\nfatal: bad tok3n here\n\n", ["tok3n"])).toBe(
      "fatal: bad *** here",
    );
  });

  it("refuses branch names git would read as an option or not take as a ref", () => {
    for (const bad of ["", "-f", "--force", "a..b", "a b", "a:b", "x.lock", "a/", "a@{1}"]) {
      expect(branchProblem(bad), bad).toBeDefined();
    }
    expect(branchProblem("claude-a2a/fix-12")).toBeUndefined();
  });

  it("hands the token to git in the environment only, scoped to the remote, hooks off", () => {
    const env = pushGitEnv("https://h/r.git", "x-access-token", "t0k");
    expect(env).toEqual({
      GIT_CONFIG_COUNT: "3",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_KEY_0: "http.https://h/r.git.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from("x-access-token:t0k").toString("base64")}`,
      GIT_CONFIG_KEY_1: "credential.helper",
      GIT_CONFIG_VALUE_1: "",
      GIT_CONFIG_KEY_2: "core.hooksPath",
      GIT_CONFIG_VALUE_2: "/dev/null",
    });
  });
});
