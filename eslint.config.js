// @ts-check
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * The layers of src/, bottom first (docs/ARCHITECTURE.md "Which way the imports go"): a module
 * (a folder of src/, or src/cli.ts) imports only modules of a lower layer, never one of its own
 * layer or above. test/unit/architecture.test.ts holds the tree to this same table, type-only
 * imports included, and fails on a folder the table does not place.
 */
export const LAYERS = [
  ["contract", "common"],
  ["identity", "workspace", "claude"],
  ["config"],
  ["tracing", "auth", "metrics", "forge"],
  ["store"],
  ["sessions", "limits", "sandbox", "delivery"],
  ["a2a"],
  ["fleet", "peers", "triggers"],
  ["http"],
  ["grpc"],
  ["doctor"],
  ["app", "client"],
  ["demo"],
  ["cli"],
];

/**
 * What docs/ARCHITECTURE.md says beside each layer of its picture, by the layer's first module
 * (`npm run docs:layers` draws the picture from LAYERS and these; a unit test fails while the
 * page's picture is another, or a note names no layer).
 */
export const LAYER_NOTES = {
  cli: "the entry: a client command, the demo, else the server",
  demo: "claude-a2a demo: the server and the client on the scripted model",
  app: "the two programs: the server's composition, the terminal client",
  doctor: "the --check checks (they read grpc's TLS, the stores, auth)",
  grpc: "reuses http's request-shape checks",
  http: "serves the fleet's handler when there is one",
  fleet: "a layer of a2a's handler stack; other agents; hooks through a2a's handler",
  a2a: "the A2A side, in sub-domain folders (below)",
  sessions:
    "the pool, the per-caller counters, the sandbox's decisions, delivery checks, a push, over the store",
  tracing: "forge: GitHub and GitLab REST with the server's token",
  identity: "claude imports nothing of ours at all",
  contract: "the leaves: they import nothing of ours",
};

const rank = (module) => LAYERS.findIndex((layer) => layer.includes(module));
/** The import patterns of every module at `module`'s layer or above (itself excepted). */
const upward = (module) =>
  LAYERS.flat()
    .filter((other) => other !== module && rank(other) >= rank(module))
    .map((other) => (other === "cli" ? "**/cli.js" : `**/${other}/*`));
const filesOf = (module) => (module === "cli" ? ["src/cli.ts"] : [`src/${module}/**/*.ts`]);

/** One `no-restricted-imports` setting for `files` (a later one for the same file replaces it). */
const layer = (files, message, group) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group, message }] }] },
});

/** Stricter than its layer, for these modules: what each may import instead. */
const STRICTER = {
  contract: [
    "src/contract/ is the wire contract, the bottom leaf: it imports nothing of ours.",
    ["../*"],
  ],
  common: [
    "src/common/ holds leaves: a module there imports nothing of ours outside it.",
    ["../*"],
  ],
  claude: [
    "src/claude/ is the provider: it imports nothing of ours outside src/claude/.",
    ["../*", "../../*"],
  ],
  tracing: [
    "src/tracing/ is a seam: it imports nothing of ours but config/.",
    ["../*", "!../config", "!../config/*"],
  ],
  auth: [
    "src/auth/ is shared by every binding: it imports no binding (http, grpc), no Express and none of the app's wiring.",
    ["express", ...upward("auth")],
  ],
};

const layerRules = LAYERS.flat()
  .filter((module) => module in STRICTER || upward(module).length > 0)
  .map((module) => {
    const [message, group] = STRICTER[module] ?? [
      `src/${module === "cli" ? "cli.ts" : module + "/"} imports only the layers below its own (eslint.config.js LAYERS: ${LAYERS.map((l) => l.join("/")).join(" < ")}).`,
      upward(module),
    ];
    return layer(filesOf(module), message, group);
  });

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver()],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  ...layerRules,
  layer(
    ["src/demo/fake-model/**/*.ts"],
    "src/demo/fake-model/ is the scripted model (the tests' and the demo's): it imports nothing of ours outside it.",
    ["../*", "../../*"],
  ),
  layer(
    ["src/client/interaction.ts", "src/client/message-parts.ts"],
    "shared with the browser console (console/): Node-free, it imports only src/common/json.ts and the contract's kinds and data parts.",
    [
      "node:*",
      "./*",
      "!./message-parts.js",
      "../*",
      "!../common",
      "../common/*",
      "!../common/json.js",
      "!../contract",
      "../contract/*",
      "!../contract/kinds.js",
      "!../contract/data-parts.js",
    ],
  ),
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
