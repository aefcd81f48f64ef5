/**
 * The Dockerfile and the image scripts checked against the code, without a container engine: the
 * port, health route, user, volumes and install steps it relies on are the ones the server and
 * docs/container.md have. `scripts/build-image.sh` builds the image and `scripts/test-image.sh`
 * runs it (both in `.ci/run`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";
import { loadScript } from "../support/fake-model/script-file.js";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const dockerfile = read("Dockerfile");
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

  it("starts every stage from BASE_IMAGE, whose default is the official image of our Node major", () => {
    const major = /(\d+)/.exec(pkg.engines.node)?.[1];
    // Before the first FROM, so every stage sees it (and build-image.sh reads the default here).
    const before = instructions.slice(
      0,
      instructions.findIndex((l) => /^FROM\s/i.test(l)),
    );
    expect(before).toEqual([expect.stringMatching(new RegExp(`^ARG BASE_IMAGE=node:${major}-`))]);
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM \$\{BASE_IMAGE\}( AS \w+)?$/i);
    expect(read("scripts/build-image.sh")).toContain("sed -n 's/^ARG BASE_IMAGE=//p' Dockerfile");
    expect(read("scripts/build-image.sh")).toContain('--build-arg "BASE_IMAGE=$base"');
  });

  it("builds its offline base with a Node the package accepts", () => {
    const base = read("scripts/image-base.sh");
    const version = /BASE_NODE_VERSION:-(\d+)\.(\d+)\.(\d+)/.exec(base);
    const [major, minor] = [Number(version?.[1]), Number(version?.[2])];
    const wanted = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(wanted).not.toBeNull();
    expect(major).toBe(Number(wanted?.[1]));
    expect(minor).toBeGreaterThanOrEqual(Number(wanted?.[2]));
    // Native modules build against the image's own headers, never downloading them.
    expect(base).toContain("ENV npm_config_nodedir=/usr/local");
  });

  it("installs with npm ci, optional packages included (the Claude Code runtime is one)", () => {
    const runs = the(build, "RUN").join("\n");
    expect(runs).toMatch(/npm ci\b/);
    expect(dockerfile).not.toMatch(/--omit[= ]optional|--no-optional|--ignore-scripts/);
    expect(runs).toMatch(/npm prune --omit=dev\b/);
  });

  it("installs the dependencies from package.json and the lockfile alone, then builds", () => {
    const at = (re: RegExp) => build.findIndex((l) => re.test(l));
    const install = at(/npm ci\b/);
    // The install layer is cached until package.json or the lockfile change: nothing else before.
    expect(build.slice(0, install).filter((l) => /^(COPY|ADD)\s/i.test(l))).toEqual([
      "COPY package.json package-lock.json ./",
    ]);
    // Without the sources, prepare (our build) cannot run there; the build step runs it instead.
    expect(build[install]).toContain("npm pkg delete scripts.prepare");
    expect(pkg.scripts.prepare).toBe("npm run build");
    const buildStep = at(/^RUN npm run build\b/);
    expect(buildStep).toBeGreaterThan(install);
    // Every file the build script names, and the sources, are copied in between.
    const copied = build
      .slice(install, buildStep)
      .filter((l) => /^COPY\s/i.test(l))
      .join(" ");
    const named = pkg.scripts.build?.match(/[\w./-]+\.(?:json|js)\b/g) ?? [];
    expect(named).toEqual(["tsconfig.build.json", "scripts/build-console.js"]);
    for (const file of [...named, "package.json", "tsconfig.json", "src", "console"]) {
      expect(copied).toContain(file);
    }
    for (const needed of ["src", "console", "package-lock.json", "tsconfig.json", "scripts"]) {
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

  it("installs what Claude Code's Linux sandbox runs: bubblewrap and socat", () => {
    const installs = the(final, "RUN").find((l) => l.includes("apt-get install")) ?? "";
    for (const pkgName of ["bubblewrap", "socat", "git", "ripgrep", "tini", "ca-certificates"]) {
      expect(installs.split(/\s+/)).toContain(pkgName);
    }
  });

  it("serves on the configured default port, which the health check calls on /healthz", () => {
    const port = defaults.server.port;
    const entry = jsonArray(the(final, "ENTRYPOINT").at(-1));
    const flag = (name: string) => entry[entry.indexOf(name) + 1];
    expect(flag("--cwd")).toBe("/workspace");
    expect(flag("--host")).toBe("0.0.0.0");
    expect(flag("--port")).toBe(String(port));
    expect(the(final, "EXPOSE")).toEqual([`EXPOSE ${port}`]);
    // The health check follows CLAUDE_A2A_PORT, the same port by default.
    expect(final).toContain(`ENV CLAUDE_A2A_PORT=${port}`);
    const health = the(final, "HEALTHCHECK").at(-1) ?? "";
    // /healthz is the public health route of src/http/app.ts (test/unit/http/health-metrics).
    expect(health).toContain("'http://127.0.0.1:' + process.env.CLAUDE_A2A_PORT + '/healthz'");
    // tini is PID 1: it forwards docker stop's SIGTERM to the server and reaps orphans.
    expect(entry.slice(0, 3)).toEqual(["/usr/bin/tini", "--", "node"]);
  });
});

describe("the image scripts", () => {
  const ci = read(".ci/run");

  it("CI builds the image beside the tests and runs it once both are done, never skipping", () => {
    const at = (s: string) => ci.indexOf(s);
    const lines = ci.split("\n").map((l) => l.trim());
    expect(at("./scripts/build-image.sh")).toBeGreaterThan(0);
    // Started in the background before the tests, and waited for (its exit code kept) after them.
    expect(lines).toContain("build_image &");
    expect(at("build_image &")).toBeLessThan(at("\nnpm test\n"));
    expect(at('wait "$image_pid"')).toBeGreaterThan(at("\nnpm test\n"));
    expect(ci).toContain('[ "$image_rc" -eq 0 ] || exit "$image_rc"');
    // The image runs last, after the tests and the build.
    expect(at("./scripts/test-image.sh")).toBeGreaterThan(at('wait "$image_pid"'));
    expect(lines.at(-2)).toBe("./scripts/test-image.sh");
    expect(read("scripts/build-image.sh")).not.toMatch(/SKIPPED|exit 0/);
  });

  it("CI installs what the image and the sandbox need when it is missing", () => {
    const installed = [...ci.matchAll(/missing\+=\((\S+)\)/g)].map((m) => m[1]);
    expect(installed.sort()).toEqual(
      ["bubblewrap", "chromium", "debootstrap", "podman", "runc", "socat"].sort(),
    );
    expect(ci).toContain('apt-get install -y -qq "${missing[@]}"');
    // Podman only where no Docker engine answers.
    expect(ci).toMatch(/if ! \{ command -v docker .* docker info .*\n\s+command -v podman/);
  });

  it("the image test's task writes inside the image's workspace volume and outside it", () => {
    const rules = loadScript(JSON.parse(read("test/image/rules.json")) as unknown);
    const first = rules[0]?.reply;
    const command =
      typeof first === "object" && first.kind === "message"
        ? first.content.flatMap((b) => (b.type === "tool_use" ? [b.input.command] : []))
        : [];
    const [workspace] = jsonArray(the(final, "VOLUME").at(-1));
    expect(command).toEqual([expect.stringContaining(`> ${workspace}/inside.txt`)]);
    // Outside: /tmp, writable by the image's user but read-only to a sandboxed command (its HOME
    // is unreadable under "strict", so a write there would land in the sandbox's masked HOME).
    expect(String(command[0])).toContain("> /tmp/outside-of-workspace.txt");
    const script = read("scripts/test-image.sh");
    expect(script).toContain("test/image/rules.json");
    expect(script).toContain("test ! -e /tmp/outside-of-workspace.txt");
  });
});
