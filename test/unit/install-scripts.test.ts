/**
 * npm 11 runs a dependency's install scripts only as `allowScripts` in package.json says (and
 * warns about, or in a later npm skips, every one it does not list). A new dependency with an
 * install script must fail this suite, not just print a warning in CI: every package of the lock
 * with `hasInstallScript` is allowed or denied, every platform's package included (a developer on
 * another OS installs those), and every entry still names such a package.
 *
 * The matching follows npm's (`@npmcli/arborist/lib/script-allowed.js`): a key is a bare name
 * (any version) or `name@<exact version>[ || <exact version>…]`; ranges and tags match nothing.
 * The name is the registry's (from the tarball URL), not an alias's install folder.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockPackage {
  readonly version?: string;
  readonly resolved?: string;
  readonly hasInstallScript?: boolean;
}

interface ScriptPackage {
  readonly name: string;
  readonly version: string;
}

const root = new URL("../../", import.meta.url);
const readJson = (file: string): unknown => JSON.parse(readFileSync(new URL(file, root), "utf8"));
const pkg = readJson("package.json") as { allowScripts?: Record<string, boolean> };
const lock = readJson("package-lock.json") as { packages: Record<string, LockPackage> };

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** A policy key as npm reads it, or undefined for one npm ignores (a range, a tag, garbage). */
function parseKey(key: string): { name: string; versions: readonly string[] | "any" } | undefined {
  const at = key.indexOf("@", 1);
  const name = at < 0 ? key : key.slice(0, at);
  const spec = at < 0 ? "" : key.slice(at + 1).trim();
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return undefined;
  if (spec === "" || spec === "*") return { name, versions: "any" };
  const versions = spec.split("||").map((v) => v.trim());
  return versions.every((v) => EXACT.test(v)) ? { name, versions } : undefined;
}

/** The registry name of a lock entry: from its tarball URL, else from its install folder. */
function registryName(path: string, entry: LockPackage): string {
  const fromUrl = entry.resolved && /^https?:\/\/[^/]+\/(.+?)\/-\//.exec(entry.resolved)?.[1];
  return fromUrl ? decodeURIComponent(fromUrl) : path.slice(path.lastIndexOf("node_modules/") + 13);
}

/** Lock entries whose install scripts npm asks the policy about. */
function scriptPackages(packages: Record<string, LockPackage>): ScriptPackage[] {
  return Object.entries(packages)
    .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
    .map(([path, entry]) => ({ name: registryName(path, entry), version: entry.version ?? "" }));
}

/** Whether some entry, allowing or denying, decides about `p` (npm: not "unreviewed"). */
function covered(policy: Record<string, boolean>, p: ScriptPackage): boolean {
  return Object.keys(policy).some((key) => {
    const parsed = parseKey(key);
    if (parsed === undefined || parsed.name !== p.name) return false;
    return parsed.versions === "any" || parsed.versions.includes(p.version);
  });
}

const uncovered = (policy: Record<string, boolean>, packages: Record<string, LockPackage>) =>
  scriptPackages(packages)
    .filter((p) => !covered(policy, p))
    .map((p) => `${p.name}@${p.version}`);

describe("install scripts (package.json allowScripts)", () => {
  it("covers every package of the lock that has an install script", () => {
    const policy = pkg.allowScripts ?? {};
    expect(scriptPackages(lock.packages).length).toBeGreaterThan(0);
    expect(uncovered(policy, lock.packages)).toEqual([]);
  });

  it("has only entries npm accepts, each naming a package of the lock with an install script", () => {
    const names = new Set(scriptPackages(lock.packages).map((p) => p.name));
    const stale = Object.keys(pkg.allowScripts ?? {}).filter((key) => {
      const parsed = parseKey(key);
      return parsed === undefined || !names.has(parsed.name);
    });
    expect(stale).toEqual([]);
  });

  it("matches like npm: names, exact pins, disjunctions and denials; not ranges, tags or aliases", () => {
    const url = (name: string, version: string) =>
      `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${version}.tgz`;
    const packages: Record<string, LockPackage> = {
      "": {},
      "node_modules/plain": {
        version: "1.0.0",
        resolved: url("plain", "1.0.0"),
        hasInstallScript: true,
      },
      "node_modules/@s/pinned": {
        version: "2.0.0",
        resolved: url("@s/pinned", "2.0.0"),
        hasInstallScript: true,
      },
      "node_modules/either": {
        version: "3.1.0",
        resolved: url("either", "3.1.0"),
        hasInstallScript: true,
      },
      "node_modules/denied": {
        version: "1.0.0",
        resolved: url("denied", "1.0.0"),
        hasInstallScript: true,
      },
      "node_modules/ranged": {
        version: "1.2.0",
        resolved: url("ranged", "1.2.0"),
        hasInstallScript: true,
      },
      "node_modules/tagged": {
        version: "1.0.0",
        resolved: url("tagged", "1.0.0"),
        hasInstallScript: true,
      },
      // An alias ("alias": "npm:real@…") is installed under its alias and matched by its real name.
      "node_modules/alias": {
        version: "1.0.0",
        resolved: url("real", "1.0.0"),
        hasInstallScript: true,
      },
      "node_modules/quiet": { version: "1.0.0", resolved: url("quiet", "1.0.0") },
      "node_modules/a/node_modules/nested": { version: "1.0.0", hasInstallScript: true },
    };
    const policy = {
      plain: true,
      "@s/pinned@2.0.0": true,
      "either@3.0.0 || 3.1.0": true,
      denied: false,
      "ranged@^1.0.0": true,
      "tagged@latest": true,
      alias: true,
      nested: true,
    };
    expect(uncovered(policy, packages)).toEqual(["ranged@1.2.0", "tagged@1.0.0", "real@1.0.0"]);
    // A pin of another version does not cover the installed one.
    const { "@s/pinned@2.0.0": _pin, ...unpinned } = policy;
    expect(uncovered({ ...unpinned, "@s/pinned@2.0.1": true }, packages)).toContain(
      "@s/pinned@2.0.0",
    );
  });
});
