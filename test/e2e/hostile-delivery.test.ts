/**
 * A hostile caller (or a prompt injection) against a delivery (docs/delivery.md), with the REAL
 * Claude Code runtime, real git, the real bubblewrap of this machine and the scripted model,
 * through the official A2A client with the control extension:
 *
 * - the caller cannot supply or alter a check's command: only the config's names are taken;
 * - the hostile check: the config's own command runs `sh ./check.sh`, a file Claude wrote, so
 *   Claude decides what the check does. With the workspace's sandbox on it cannot write outside
 *   the worktree, read the server's secrets, reach the network or see the server's process; the
 *   same script with the sandbox off shows each probe would have seen it (none is vacuous);
 * - hooks, an fsmonitor and a filter driver planted in the repository's git config by that check
 *   never run when the server commits the task's work at its end.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import type { ConfigInput } from "../../src/config/schema.js";
import type { CheckRun, ProofOfWork } from "../../src/contract/delivery.js";
import {
  a2a,
  getTask,
  idsOf,
  lastStatus,
  reply,
  sendRequest,
  startListener,
  text,
  toolUse,
  userMessage,
  watch,
  type A2AHarness,
  type ParsedRequest,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const SERVER_SECRET = "server-variable-secret-d31f";
const FORGE_TOKEN = "forge-token-of-the-server-7a02";
const CREDENTIALS = "oauth-token-of-the-owner-c9e4";
const HOME_SECRET = "gh-token-in-home-4b18";
const API_KEY = "sk-ant-fake-key-for-tests"; // what the test bench gives the runtime

const PROBE = { name: "probe", command: "sh ./check.sh", timeoutSeconds: 120 };

/** Where the planted programs leave their marks: only a process of the host could write here. */
let marks = "";
/**
 * The test's temp directories go under /var/tmp, as a server's files are outside /tmp: under
 * /tmp the check's private /tmp would hide them whatever else its sandbox does.
 */
let outsideTmp = "";
const savedTmpdir = process.env.TMPDIR;
/** As a server started with them in its environment (a trigger's variables are checked there). */
const SERVER_ENV = { A2A_TEST_FORGE_TOKEN: FORGE_TOKEN, A2A_TEST_HD_SECRET: "hd-webhook-secret" };
beforeAll(async () => {
  marks = await mkdtemp(join(tmpdir(), "hostile-delivery-marks-"));
  outsideTmp = await mkdtemp("/var/tmp/hostile-delivery-");
  process.env.TMPDIR = outsideTmp;
  Object.assign(process.env, SERVER_ENV);
});
afterAll(async () => {
  for (const name of Object.keys(SERVER_ENV)) delete process.env[name];
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await rm(marks, { recursive: true, force: true });
  await rm(outsideTmp, { recursive: true, force: true });
});

/** A program that leaves the mark `name` when something runs it. */
const planted = (name: string) => `#!/bin/sh\ntouch '${marks}/${name}'\nexit 0\n`;

interface Paths {
  readonly repo: string;
  readonly configDir: string;
  readonly home: string;
  readonly port: number;
}

/**
 * The hostile check, as Claude writes it: each probe prints one line `<probe>: <outcome>`. It
 * names variables, never their values, so the secrets could only reach the task by a probe's
 * success. It always exits 0: the delivery goes green and the server commits.
 */
function checkScript(p: Paths): string {
  return [
    'try() { out=$("$@" 2>&1) && echo ok || echo "refused $(printf %s "$out" | head -n 1)"; }',
    'for v in SERVER_SECRET ANTHROPIC_API_KEY A2A_TEST_FORGE_TOKEN; do eval "x=\\${$v+set}"; echo "env $v: ${x:-unset}"; done',
    `echo "credentials: $(try cat '${p.configDir}/.credentials.json')"`,
    `echo "home: $(try cat '${p.home}/.netrc')"`,
    `echo "server process: $(try test -r /proc/${process.pid}/environ)"`,
    `echo "outside write: $(try cp check.sh '${p.repo}/escaped.txt')"`,
    // The conversation's own repository: the one the server commits the task's work in.
    "gd=$(git rev-parse --path-format=absolute --git-common-dir)",
    'mkdir -p "$gd/hooks" 2>/dev/null',
    'echo "plant hook: $(try cp hook.sh "$gd/hooks/post-commit")"',
    'chmod +x .githooks/* fsmonitor.sh "$gd/hooks/post-commit" 2>/dev/null',
    'echo "plant fsmonitor: $(try git config --file "$gd/config" core.fsmonitor "$PWD/fsmonitor.sh")"',
    'echo "plant filter: $(try git config --file "$gd/config" filter.evil.clean "sh $PWD/filter.sh")"',
    'git config --file "$gd/config" filter.evil.required true 2>/dev/null',
    'echo "plant hooksPath: $(try git config --file "$gd/config" core.hooksPath "$PWD/.githooks")"',
    'echo "planted: $(git config --file "$gd/config" --get-regexp "fsmonitor|filter|hookspath" | wc -l)"',
    `echo "network: $(try node net.js ${p.port})"`,
    "exit 0",
    "",
  ].join("\n");
}

/** Connects to the loopback listener and gets its answer; fails with the error's code. */
const NET_JS = `const s = require("net").connect(Number(process.argv[2]), "127.0.0.1");
s.on("connect", () => s.write("GET / HTTP/1.0\\r\\n\\r\\n"));
s.on("data", () => process.exit(0));
s.on("error", (e) => { console.error(e.code); process.exit(1); });
`;

/**
 * The planted programs, Claude's files in the worktree: the hooks of the worktree's own folder
 * (core.hooksPath above), an attribute naming the filter, the programs the check plants.
 */
const worktreeFiles = () => [
  { path: ".githooks/pre-commit", content: planted("ran-hookspath-pre-commit") },
  { path: ".githooks/post-commit", content: planted("ran-hookspath-post-commit") },
  { path: ".gitattributes", content: "* filter=evil\n" },
  { path: "hook.sh", content: planted("ran-hook") },
  { path: "fsmonitor.sh", content: planted("ran-fsmonitor") },
  { path: "filter.sh", content: `touch '${marks}/ran-filter'\ncat\n` },
  { path: "net.js", content: NET_JS },
];

/** Claude writes the worktree's files, then check.sh, then says it is done. */
function rulesFor(paths: () => Paths) {
  const files = [...worktreeFiles(), { path: "check.sh", content: "" }];
  const writeNext = (i: number) => (req: ParsedRequest) => {
    const f = files[i];
    if (f === undefined) return reply(text("Done."));
    const content = f.path === "check.sh" ? checkScript(paths()) : f.content;
    return reply(toolUse("Write", { file_path: join(workingDir(req), f.path), content }));
  };
  return [
    {
      name: "write the next file",
      match: { toolResult: /File created successfully/ },
      // Each result of a Write is in the conversation: their count is the next file's index.
      reply: (req: ParsedRequest) =>
        writeNext((JSON.stringify(req.body).match(/File created successfully/g) ?? []).length)(req),
    },
    { name: "first turn", match: { lastUserText: /Do the work/ }, reply: writeNext(0) },
  ];
}

const configWith = (sandbox: "strict" | undefined): ConfigInput => ({
  claude: {
    isolation: "worktree",
    ...(sandbox && { sandbox }),
    env: { SERVER_SECRET },
    delivery: { checks: [PROBE], maxRounds: 0 },
  },
  // A forge token of the server's (a trigger's result comment): a secret no child ever gets.
  triggers: {
    issues: {
      kind: "webhook",
      verify: "github",
      secretEnv: "A2A_TEST_HD_SECRET",
      filters: { events: ["issues"] },
      prompt: "Look at issue #{{issue.number}}",
      allowUnsandboxed: sandbox === undefined,
      result: {
        forge: {
          kind: "github",
          baseUrl: "http://127.0.0.1:9/api/v3",
          repository: "octo/widgets",
          tokenEnv: "A2A_TEST_FORGE_TOKEN",
        },
      },
    },
  },
});

/** Every file Claude wrote: the task's commit holds them all. */
const WRITTEN = [
  ".gitattributes",
  ".githooks/post-commit",
  ".githooks/pre-commit",
  "check.sh",
  "filter.sh",
  "fsmonitor.sh",
  "hook.sh",
  "net.js",
];

interface Delivered {
  readonly h: A2AHarness;
  readonly events: StreamResponse[];
  readonly probes: Record<string, string>;
  readonly proof: ProofOfWork | undefined;
  readonly hits: number;
  readonly everything: string;
}

/** One delivery whose check is Claude's script, on a workspace with `sandbox`. */
async function deliver(sandbox: "strict" | undefined): Promise<Delivered> {
  const listener = await startListener();
  // The bench's folders are known once it runs; Claude's first Write comes after.
  const bench: { h?: A2AHarness } = {};
  const pathsNow = (): Paths => {
    const { cwd, configDir, home } = (bench.h as A2AHarness).bench.sandbox;
    return { repo: cwd, configDir, home, port: listener.port };
  };
  const h = await a2a({
    fetchImpl: withControl,
    config: configWith(sandbox),
    serverEnv: SERVER_ENV,
    rules: rulesFor(pathsNow),
    beforeStart: (cwd) => initRepository(cwd),
  });
  bench.h = h;
  const { configDir, home } = h.bench.sandbox;
  await writeFile(join(configDir, ".credentials.json"), JSON.stringify({ CREDENTIALS }));
  await writeFile(join(home, ".netrc"), `machine forge password ${HOME_SECRET}\n`);
  const message: Message = { ...userMessage("Do the work"), metadata: { deliver: true } };
  const events = await watch(h.client.sendMessageStream(sendRequest(message))).done;
  const end = lastStatus(events);
  expect(end.state, end.text).toBe(TaskState.TASK_STATE_COMPLETED);
  const run = events.flatMap((e) => {
    const m = e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    return m?.metadata?.kind === "delivery" ? [m.metadata as unknown as CheckRun] : [];
  })[0];
  const probes = Object.fromEntries(
    (run?.outputTail ?? "").split("\n").flatMap((line) => {
      const at = line.indexOf(": ");
      return at < 0 ? [] : [[line.slice(0, at), line.slice(at + 2)]];
    }),
  );
  const artifact = events.flatMap((e) =>
    e.payload?.$case === "artifactUpdate" &&
    e.payload.value.artifact?.artifactId === "proof-of-work"
      ? [e.payload.value.artifact]
      : [],
  )[0];
  const data = artifact?.parts[0]?.content;
  const task = await getTask(h.client, idsOf(events).taskId ?? "");
  return {
    h,
    events,
    probes,
    proof: data?.$case === "data" ? (data.value as ProofOfWork | undefined) : undefined,
    hits: listener.hits(),
    everything: JSON.stringify([events, task]),
  };
}

/** The marks left by a planted program, if any. */
const marksLeft = async () =>
  (
    await Promise.all(
      [
        "pre-commit",
        "post-commit",
        "fsmonitor",
        "filter",
        "hookspath-pre-commit",
        "hookspath-post-commit",
      ].map(async (m) =>
        (await readFile(join(marks, `ran-${m}`)).catch(() => undefined)) ? [m] : [],
      ),
    )
  ).flat();

const deliverMessage = (deliver: unknown): Message => ({
  ...userMessage("Do the work"),
  metadata: { deliver },
});

describe("hostile delivery: a caller cannot supply or alter a check command", () => {
  it("refuses a command, a check named with shell metacharacters or as a path, before any task exists; nothing runs", async () => {
    const touched = join(marks, "caller-command-ran");
    const h = await a2a({
      fetchImpl: withControl,
      config: configWith("strict"),
      serverEnv: SERVER_ENV,
      rules: [],
      beforeStart: (cwd) => initRepository(cwd),
    });
    const send = (deliver: unknown) => h.client.sendMessage(sendRequest(deliverMessage(deliver)));
    const refused: [unknown, string][] = [
      [{ command: `touch ${touched}` }, 'metadata.deliver has no key "command"'],
      [{ checks: ["probe"], command: `touch ${touched}` }, 'metadata.deliver has no key "command"'],
      [
        { checks: [{ name: "probe", command: `touch ${touched}` }] },
        "a caller never supplies a command",
      ],
      [{ checks: [`probe; touch ${touched}`] }, "Unknown check"],
      [{ checks: [`$(touch ${touched})`] }, "Unknown check"],
      [{ checks: ["probe && id"] }, "Unknown check"],
      [{ checks: ["../../../bin/sh"] }, "Unknown check"],
      [{ checks: ["/bin/sh"] }, "Unknown check"],
      [{ checks: ["./check.sh"] }, "Unknown check"],
      [{ checks: { probe: `touch ${touched}` } }, "a caller never supplies a command"],
      [`branch; touch ${touched}`, "Unknown delivery target"],
    ];
    for (const [deliver, why] of refused) {
      await expect(send(deliver), JSON.stringify(deliver)).rejects.toThrow(why);
    }
    expect(existsSync(touched)).toBe(false);
    expect(h.bench.model.requests).toEqual([]);
    const listed = await h.client.listTasks({
      tenant: "",
      contextId: "",
      status: 0,
      pageSize: 100,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    expect(listed.tasks).toEqual([]);
  }, 120_000);
});

describe("hostile delivery: the check runs what Claude wrote", () => {
  it('sandbox "strict": the check cannot write outside the worktree, read a secret, reach the network, see the server, or plant git config; the server commits', async () => {
    const d = await deliver("strict");
    expect(d.probes).toMatchObject({
      "env SERVER_SECRET": "unset",
      "env ANTHROPIC_API_KEY": "unset",
      "env A2A_TEST_FORGE_TOKEN": "unset",
    });
    for (const probe of [
      "credentials",
      "home",
      "server process",
      "plant hook",
      "plant fsmonitor",
      "plant filter",
      "plant hooksPath",
      "network",
    ]) {
      expect(d.probes[probe], `${probe}: ${JSON.stringify(d.probes)}`).toMatch(/^refused/);
    }
    // The workspace's folder is hidden under the check's private /tmp here (the test's temp
    // directories are under /tmp): its write lands there, and vanishes with the check.
    const repo = d.h.bench.sandbox.cwd;
    expect(existsSync(join(repo, "escaped.txt"))).toBe(false);
    expect(existsSync(join(repo, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(git(repo, "config", "--list", "--local")).not.toMatch(
      /fsmonitor|filter\.evil|hookspath/i,
    );
    expect(d.hits).toBe(0);
    for (const secret of [SERVER_SECRET, FORGE_TOKEN, CREDENTIALS, HOME_SECRET, API_KEY]) {
      expect(d.everything).not.toContain(secret);
    }
    // The server's commit of the task's work, with the worktree's planted files in it.
    expect(d.proof?.files.map((f) => f.path).sort()).toEqual(WRITTEN);
    expect(await marksLeft()).toEqual([]);
  }, 180_000);

  it("sandbox off: the same probes see what the sandbox hid (none is vacuous), and the config they plant never runs when the server commits", async () => {
    const d = await deliver(undefined);
    // The environment Claude's Bash gets: the workspace's variable, never the model's key nor a
    // server's token.
    expect(d.probes).toMatchObject({
      "env SERVER_SECRET": "set",
      "env ANTHROPIC_API_KEY": "unset",
      "env A2A_TEST_FORGE_TOKEN": "unset",
    });
    for (const probe of [
      "credentials",
      "home",
      "server process",
      "outside write",
      "plant hook",
      "plant fsmonitor",
      "plant filter",
      "plant hooksPath",
      "network",
    ]) {
      expect(d.probes[probe], `${probe}: ${JSON.stringify(d.probes)}`).toBe("ok");
    }
    expect(d.hits).toBe(1);
    const repo = d.h.bench.sandbox.cwd;
    expect(existsSync(join(repo, "escaped.txt"))).toBe(true);
    // Planted, every one of them, in the repository the server commits in...
    expect(d.probes.planted).toBe("4");
    // ...and the server's commit ran none, and still committed the task's work.
    expect(d.proof?.files.map((f) => f.path).sort()).toEqual(WRITTEN);
    expect(git(repo, "log", "-1", "--format=%an", d.proof?.branch ?? "").trim()).toBe("claude-a2a");
    expect(await marksLeft()).toEqual([]);
    for (const secret of [FORGE_TOKEN, API_KEY]) expect(d.everything).not.toContain(secret);
  }, 180_000);
});
