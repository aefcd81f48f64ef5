/**
 * The Dockerfile checked against the code, without a Docker engine (CI machines may have none):
 * the port, health route, user, volumes and install steps it relies on are the ones the server
 * and docs/operations.md have. `scripts/build-image.sh` builds and runs the image where an engine answers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";

const root = new URL("../../", import.meta.url);
const dockerfile = readFileSync(new URL("Dockerfile", root), "utf8");
const dockerignore = readFileSync(new URL(".dockerignore", root), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"));
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

/** Instructions with their continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"));
const stages: string[][] = [];
for (const line of instructions) {
  if (/^FROM\s/i.test(line)) stages.push([]);
  stages.at(-1)?.push(line);
}
const final = stages.at(-1) ?? [];
const build = stages[0] ?? [];
const arg = (line: string | undefined) => line?.replace(/^\w+\s+/, "") ?? "";
const the = (stage: string[], keyword: string) =>
  stage.filter((l) => l.toUpperCase().startsWith(`${keyword} `));
const jsonArray = (line: string | undefined) => JSON.parse(arg(line)) as string[];

const defaults = configSchema.parse({});

describe("Dockerfile", () => {
  it("is multi-stage: a build stage, and a final stage with only what runs", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(build[0]).toMatch(/^FROM \S+ AS build$/i);
    expect(the(final, "COPY").filter((l) => l.includes("--from=build"))).toEqual([
      "COPY --from=build /app/node_modules ./node_modules",
      "COPY --from=build /app/dist ./dist",
    ]);
  });

  it("uses the Node major the package requires", () => {
    const major = /(\d+)/.exec(pkg.engines.node)?.[1];
    for (const stage of stages) expect(stage[0]).toMatch(new RegExp(`^FROM node:${major}\\b`));
  });

  it("installs with npm ci, optional packages included (the Claude Code runtime is one)", () => {
    const runs = the(build, "RUN").join("\n");
    expect(runs).toMatch(/npm ci\b/);
    expect(dockerfile).not.toMatch(/--omit[= ]optional|--no-optional|--ignore-scripts/);
    expect(runs).toMatch(/npm prune --omit=dev\b/);
  });

  it("copies the sources before npm ci, whose prepare script builds them", () => {
    expect(pkg.scripts.prepare).toBe("npm run build");
    const at = (re: RegExp) => build.findIndex((l) => re.test(l));
    const install = at(/^RUN npm ci\b/);
    expect(install).toBeGreaterThan(0);
    expect(at(/^COPY .*tsconfig\.build\.json/)).toBeLessThan(install);
    expect(at(/^COPY src\b/)).toBeLessThan(install);
    for (const needed of ["src", "package-lock.json", "tsconfig.json", "tsconfig.build.json"]) {
      expect(dockerignore).not.toContain(needed);
    }
    // Local state and build output never reach the image.
    for (const kept of [".claude", "node_modules", "dist"]) expect(dockerignore).toContain(kept);
  });

  it("fails the build unless the Claude Code runtime of the platform is in the final stage", () => {
    const check = the(final, "RUN").find((l) => l.includes("claude-agent-sdk-$platform"));
    expect(check).toMatch(/amd64\) platform=linux-x64/);
    expect(check).toMatch(/arm64\) platform=linux-arm64/);
    expect(check).toMatch(/test -x "\$runtime"/);
  });

  it("runs as a non-root user, with the workspace and that user's ~/.claude as volumes", () => {
    const user = arg(the(final, "USER").at(-1));
    expect(user).not.toMatch(/^(root|0)$/);
    const created = /useradd .*--uid (\d+) .*\b(\S+)$/m.exec(the(final, "RUN").join("\n"));
    expect(created?.[2]).toBe(user);
    expect(Number(created?.[1])).toBeGreaterThan(0);
    const volumes = jsonArray(the(final, "VOLUME").at(-1));
    expect(volumes).toEqual(["/workspace", `/home/${user}/.claude`]);
    expect(final).toContain(`ENV CLAUDE_CONFIG_DIR=/home/${user}/.claude`);
  });

  it("serves on the configured default port, which the health check calls on /healthz", () => {
    const port = defaults.server.port;
    const entry = jsonArray(the(final, "ENTRYPOINT").at(-1));
    const flag = (name: string) => entry[entry.indexOf(name) + 1];
    expect(flag("--cwd")).toBe("/workspace");
    expect(flag("--host")).toBe("0.0.0.0");
    expect(flag("--port")).toBe(String(port));
    expect(the(final, "EXPOSE")).toEqual([`EXPOSE ${port}`]);
    const health = the(final, "HEALTHCHECK").at(-1) ?? "";
    // /healthz is the public health route of src/http/app.ts (test/unit/http/health-metrics).
    expect(health).toContain(`http://127.0.0.1:${port}/healthz`);
    // tini is PID 1: it forwards docker stop's SIGTERM to the server and reaps orphans.
    expect(entry.slice(0, 3)).toEqual(["/usr/bin/tini", "--", "node"]);
  });
});
