/**
 * Runs the A2A conformance kit (a2aproject/a2a-tck: Python, pytest) against claude-a2a: the built
 * server (dist/cli.js) with its gRPC binding on, the real Claude Code runtime against the scripted
 * model (it answers "echo: <text>"), everything on 127.0.0.1. Not part of CI: it needs Python and
 * the kit's packages. Setup and the recorded results: docs/CONFORMANCE.md.
 *
 *   npm run build
 *   npx tsx scripts/conformance.ts --tck ../a2a-tck [--transport grpc] [--category mandatory]
 *
 * Prints the kit's own output, then a summary (passed, failed, skipped, each failure's first
 * line); the JUnit XML and the server's log are kept (--junit FILE, --server-log FILE, default temp
 * files, printed). Exit code: pytest's.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../test/support/a2a/harness.js";
import { startTestBench } from "../test/support/bench.js";
import { reply, text, type Rule } from "../test/support/fake-model/index.js";
import { spawnServer, writeTestConfig } from "../test/support/server-process.js";

const USAGE = `Usage: npx tsx scripts/conformance.ts --tck DIR [options]

  --tck DIR         a checkout of the A2A conformance kit (a2aproject/a2a-tck); or $A2A_TCK_DIR
  --transport T     grpc (default), jsonrpc or rest: the one binding the kit may use
  --category C      mandatory (default), capabilities, transport-equivalence, quality,
                    features, or all
  --python PATH     the Python with the kit's packages (default DIR/.venv/bin/python, else python3)
  --junit FILE      where to keep the JUnit XML (default: a temp file)
  --server-log FILE where to keep the server's JSON log lines, one per request with its method,
                    path and answer (default: a temp file)
  --bare            send the kit's requests as it makes them: its gRPC client sends no
                    A2A-Version, which v1.0 reads as 0.3 (every call refused VersionNotSupported);
                    by default the kit's own header setting (A2A_AUTH_TYPE=apikey,
                    A2A_AUTH_HEADER=A2A-Version) adds "A2A-Version: 1.0" to every request
`;

/** The kit's categories, as its run_tck.py selects them (path and pytest markers). */
const CATEGORIES: Record<string, { path: string; markers?: string }> = {
  mandatory: { path: "tests/mandatory/", markers: "mandatory or mandatory_protocol" },
  capabilities: { path: "tests/optional/capabilities/" },
  "transport-equivalence": {
    path: "tests/optional/multi_transport/",
    markers: "transport_equivalence",
  },
  quality: { path: "tests/optional/quality/" },
  features: { path: "tests/optional/features/" },
};

const { values } = parseArgs({
  options: {
    tck: { type: "string" },
    transport: { type: "string", default: "grpc" },
    category: { type: "string", default: "mandatory" },
    python: { type: "string" },
    junit: { type: "string" },
    "server-log": { type: "string" },
    bare: { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
});
const tck = values.tck ?? process.env.A2A_TCK_DIR;
if (values.help || tck === undefined) {
  process.stdout.write(USAGE);
  process.exit(values.help ? 0 : 2);
}
const transport = values.transport;
if (!["grpc", "jsonrpc", "rest"].includes(transport)) {
  process.stderr.write(`--transport must be grpc, jsonrpc or rest, not ${transport}\n`);
  process.exit(2);
}
const categories = values.category === "all" ? Object.keys(CATEGORIES) : [values.category];
if (categories.some((c) => CATEGORIES[c] === undefined)) {
  process.stderr.write(`--category must be one of ${Object.keys(CATEGORIES).join(", ")} or all\n`);
  process.exit(2);
}
const tckDir = resolve(tck);
/** The kit's "API key" header setting, used to send the header its gRPC client leaves out. */
const VERSION_HEADER = {
  A2A_AUTH_TYPE: "apikey",
  A2A_AUTH_HEADER: "A2A-Version",
  A2A_AUTH_TOKEN: "1.0",
};
const venvPython = join(tckDir, ".venv", "bin", "python");
const python = values.python ?? (existsSync(venvPython) ? venvPython : "python3");

// The kit speaks to whatever the card lists; a loopback webhook receiver of its own is allowed.
const echo: Rule = {
  name: "echo",
  match: {},
  reply: (req) =>
    reply(
      text(
        `echo: ${req.lastUserText.replace(/<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, "").trim()}`,
      ),
    ),
};
const bench = await startTestBench([echo]);
const port = await freePort();
const grpcPort = await freePort();
await writeTestConfig(bench.sandbox.cwd, {
  server: {
    pushAllowPrivateNetworks: true,
    // A URL, not host:port: the kit reads the card's GRPC url with Python's urlparse. And
    // localhost, not 127.0.0.1, which its card check flags as "sensitive information".
    grpc: { port: grpcPort, publicAddress: `grpc://localhost:${grpcPort}` },
  },
});
const server = await spawnServer({
  cwd: bench.sandbox.cwd,
  port,
  env: bench.sandbox.env,
  built: true,
});
process.stdout.write(`claude-a2a at ${server.url}, gRPC at 127.0.0.1:${grpcPort}\n`);

let code = 0;
try {
  for (const category of categories) {
    const selected = CATEGORIES[category] as { path: string; markers?: string };
    const junit =
      values.junit ??
      join(await mkdtemp(join(tmpdir(), "a2a-tck-")), `${category}-${transport}.xml`);
    const args = [
      "-m",
      "pytest",
      selected.path,
      `--sut-url=${server.url}`,
      "--test-scope=all",
      "--tb=short",
      "-q",
      `--transports=${transport}`,
      `--transport-strategy=prefer_${transport}`,
      `--junitxml=${junit}`,
      ...(selected.markers ? ["-m", selected.markers] : []),
    ];
    const how = values.bare ? "as the kit sends it" : "with A2A-Version: 1.0";
    process.stdout.write(
      `\n== ${category} over ${transport} (${how}): ${python} ${args.join(" ")}\n`,
    );
    const exit = await run(python, args, tckDir, values.bare ? {} : VERSION_HEADER);
    code = code === 0 ? exit : code;
    process.stdout.write(summary(category, await readFile(junit, "utf8").catch(() => "")));
    process.stdout.write(`JUnit XML: ${junit}\n`);
  }
} finally {
  server.kill("SIGTERM");
  await server.exited;
  const log = values["server-log"] ?? join(await mkdtemp(join(tmpdir(), "a2a-tck-")), "server.log");
  await writeFile(log, server.stdout());
  process.stdout.write(`Server log: ${log}\n`);
  await bench.close();
}
process.exit(code);

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
    child.once("error", fail);
    child.once("exit", (exitCode) => done(exitCode ?? 1));
  });
}

/** Counts and each failure's first line, from pytest's JUnit XML. */
function summary(category: string, xml: string): string {
  const attr = (tag: string, name: string) =>
    new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(tag)?.[1] ?? "";
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const cases = [...xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)];
  const failed: string[] = [];
  let skipped = 0;
  for (const [, head = "", , body = ""] of cases) {
    if (/<skipped/.test(body)) skipped++;
    const problem = /<(failure|error) ([^>]*)/.exec(body);
    if (problem === null) continue;
    const name = `${attr(head, "classname")}::${attr(head, "name")}`;
    const message = decode(attr(problem[2] ?? "", "message"))
      .split("\n")[0]
      ?.slice(0, 200);
    failed.push(`  ${problem[1]} ${name}: ${message}`);
  }
  const passed = cases.length - failed.length - skipped;
  return [
    `\n${category} over ${transport}: ${passed} passed, ${failed.length} failed, ${skipped} skipped`,
    ...failed,
    "",
  ].join("\n");
}
