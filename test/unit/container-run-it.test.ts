/**
 * docs/container.md's "Run it" and scripts/test-image.sh agree: the script runs the doc's blocks
 * (found by their `<!-- run-it: NAME -->` comments) word for word, putting in only the documented
 * placeholders, and the blocks match the Dockerfile (tag, uid, volumes, port) and the config
 * schema. The script's awk and this file's runItBlock find the same text.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const doc = read("docs/container.md");
const script = read("scripts/test-image.sh");
const dockerfile = read("Dockerfile");

/** The fenced block after `<!-- run-it: name -->`, as the script's awk finds it. Pure. */
function runItBlock(markdown: string, name: string): string | undefined {
  const lines = markdown.split("\n");
  const at = lines.indexOf(`<!-- run-it: ${name} -->`);
  if (at < 0) return undefined;
  const open = lines.findIndex((l, i) => i > at && l.startsWith("```"));
  const close = lines.findIndex((l, i) => i > open && l.startsWith("```"));
  return open < 0 || close < 0 ? undefined : lines.slice(open + 1, close).join("\n");
}

const block = (name: string): string => {
  const text = runItBlock(doc, name);
  expect(text, `docs/container.md: <!-- run-it: ${name} -->`).toBeTruthy();
  return text ?? "";
};
const defaultTag = (file: string) => /^IMAGE=\$\{IMAGE:-([^}]+)\}$/m.exec(read(file))?.[1];
const volumes = JSON.parse(/^VOLUME (\[.*\])$/m.exec(dockerfile)?.[1] ?? "[]") as string[];
const uid = /useradd .*--uid (\d+)/.exec(dockerfile)?.[1];

describe('docs/container.md "Run it" and scripts/test-image.sh', () => {
  it("the script finds its blocks the way runItBlock does, and uses every one it needs", () => {
    expect(script).toContain("$0 == want { found = 1; next }");
    expect(script).toContain('want="<!-- run-it: $1 -->"');
    for (const name of ["workspace", "sandbox-config", "podman-setup"]) {
      expect(script).toContain(`doc_block ${name}`);
      block(name);
    }
    // The engine's own local-model block: both are there.
    expect(script).toContain('doc_block "$ENGINE-local-model"');
    for (const engine of ["docker", "podman"]) block(`${engine}-local-model`);
  });

  it("puts in only the documented placeholders, each of which the blocks have", () => {
    const seds = [...script.matchAll(/-e "s\|(.+?)\|.*?\|g?"/g)].map((m) => m[1]);
    expect(seds).toEqual([
      "--name claude-a2a ",
      "claude-home:",
      "3008",
      "http://127.0.0.1:4000",
      "^\\( *\\)claude-a2a ",
      // The published-port run: the names, the host's side of the port, the image (last word).
      "--name claude-a2a ",
      "claude-home:",
      "127.0.0.1:3008:",
      " claude-a2a$",
    ]);
    const placeholders = doc.slice(doc.indexOf("## Run it"), doc.indexOf("**The workspace.**"));
    for (const p of ["`claude-a2a`", "`claude-home`", "`3008`", "`http://127.0.0.1:4000`"]) {
      expect(placeholders).toContain(p);
    }
    for (const engine of ["docker", "podman"]) {
      const run = block(`${engine}-local-model`);
      expect(run).toContain("--name claude-a2a ");
      expect(run).toContain("-v claude-home:");
      expect(run).toContain("http://127.0.0.1:4000");
      expect(run).toMatch(/^ *claude-a2a --host 127\.0\.0\.1 --port 3008$/m);
    }
  });

  it("the published-port blocks have the placeholders the script puts in", () => {
    expect(script).toContain('doc_block "$ENGINE" | sed');
    expect(script).toContain("doc_block published-config");
    for (const engine of ["docker", "podman"]) {
      const run = block(engine);
      expect(run).toContain("--name claude-a2a ");
      expect(run).toContain("-p 127.0.0.1:3008:3008 ");
      expect(run).toMatch(/ claude-a2a$/);
    }
    const config = configSchema.parse(JSON.parse(block("published-config")));
    expect(config.server.allowUnauthenticatedRemote).toBe(true);
  });

  it("runs the image the build script tags, under the name every block uses", () => {
    expect(defaultTag("scripts/build-image.sh")).toBe("claude-a2a");
    expect(defaultTag("scripts/test-image.sh")).toBe("claude-a2a");
    for (const name of ["docker", "podman"]) expect(block(name)).toMatch(/\n +-e \S+ claude-a2a$/);
  });

  it("each engine's blocks mount the image's volumes and reach a model on the host's loopback", () => {
    for (const name of ["docker", "podman", "docker-local-model", "podman-local-model"]) {
      const text = block(name);
      expect(text).toContain(`-v "$PWD":${volumes[0]}`);
      expect(text).toContain(`-v claude-home:${volumes[1]}`);
      expect(text).toContain("-e ANTHROPIC_API_KEY");
      if (name.endsWith("local-model")) {
        expect(text).toContain("--network host");
        expect(text).toContain("-e CLAUDE_A2A_PORT=3008");
      } else {
        expect(text).toContain("-p 127.0.0.1:3008:3008");
      }
      // Podman as CI runs it: runc, cgroupfs, and (podman-setup) no default ulimits.
      if (name.startsWith("podman")) {
        expect(text).toMatch(/^podman --runtime runc --cgroup-manager cgroupfs run -d /);
      }
    }
    expect(block("podman-setup")).toContain("default_ulimits = []");
    expect(block("podman-setup")).toContain("export CONTAINERS_CONF=");
  });

  it("gives the workspace to the image's uid and tells git it is safe, on the host and inside", () => {
    const workspace = block("workspace");
    expect(workspace).toContain(`chown -R ${uid} .`);
    expect(workspace).toContain('git config --global --add safe.directory "$PWD"');
    expect(dockerfile).toContain(`git config --system --add safe.directory ${volumes[0]}`);
    expect(script).toContain('git -C "$workspace" status');
  });

  it("the sandbox config is a valid config, strict with enableWeakerNestedSandbox", () => {
    const config = configSchema.parse(JSON.parse(block("sandbox-config")));
    expect(config.claude.sandbox).toEqual({ preset: "strict", enableWeakerNestedSandbox: true });
    // The script checks --check without the key fails naming it, as the doc says it does.
    expect(script).toContain('"set claude.sandbox.enableWeakerNestedSandbox to true"');
    expect(doc).toContain("set claude.sandbox.enableWeakerNestedSandbox to true (in a container");
  });
});

describe("runItBlock", () => {
  it("finds the block after its comment, and nothing without one", () => {
    const md = "x\n<!-- run-it: a -->\n\n```sh\none\ntwo\n```\n<!-- run-it: b -->\n";
    expect(runItBlock(md, "a")).toBe("one\ntwo");
    expect(runItBlock(md, "b")).toBeUndefined();
    expect(runItBlock(md, "c")).toBeUndefined();
  });
});
