import { describe, expect, it } from "vitest";
import { scopedUrl, workspaceDatabase } from "../../../src/store/postgres-scope.js";

describe("a PostgreSQL database per workspace (pure)", () => {
  it.each([
    ["postgres://u:p@db:5432/a2a", "api", "postgres://u:p@db:5432/a2a_api"],
    [
      "postgresql://u@db/a2a?sslmode=require",
      "web-2",
      "postgresql://u@db/a2a_web_2?sslmode=require",
    ],
    // No database in the URL: PostgreSQL's default, the user's name.
    ["postgres://alice@db", "api", "postgres://alice@db/alice_api"],
  ])("%s for %s → %s", (url, workspace, scoped) => {
    expect(scopedUrl(url, workspace)).toBe(scoped);
  });

  it("names the database after the configured one and the workspace", () => {
    expect(workspaceDatabase("a2a", "my-api")).toBe("a2a_my_api");
  });
});
