// @ts-check
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * The direction of dependencies in src/ (docs/ARCHITECTURE.md): leaves (common, identity,
 * workspace, timers) import nothing of ours above them; the Claude provider imports nothing of
 * ours outside it; the stores, the session pool and the per-caller limits know of the A2A side
 * only its contract; tracing imports only the config; the A2A side knows nothing of the bindings
 * (http, grpc) that carry it.
 */
const layer = (files, message, group) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group, message }] }] },
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
  layer(
    ["src/claude/**/*.ts"],
    "src/claude/ is the provider: it imports nothing of ours outside src/claude/.",
    ["../*", "../../*"],
  ),
  layer(["src/common/**/*.ts", "src/timers.ts"], "a leaf module imports nothing of ours.", [
    "./*",
    "../*",
    "!./json.js",
    "!./errors.js",
  ]),
  layer(
    ["src/identity/**/*.ts", "src/workspace/**/*.ts"],
    "a leaf module imports only src/common/ and its own folder.",
    ["../*", "!../common/*"],
  ),
  layer(
    ["src/store/**/*.ts", "src/sessions/**/*.ts"],
    "store/ and sessions/ know of the A2A side only its contract (src/a2a/contract/), and nothing of the fleet.",
    ["**/a2a/*", "!**/a2a/contract", "!**/a2a/contract/*", "**/http/*", "**/grpc/*", "**/fleet/*"],
  ),
  layer(
    ["src/fleet/**/*.ts"],
    "src/fleet/ sits between the A2A side and the wiring: it imports no binding (http, grpc) and none of the app's wiring.",
    ["**/http/*", "**/grpc/*", "**/server.js", "**/main.js", "**/agent.js", "**/cli.js"],
  ),
  layer(
    ["src/auth/**/*.ts"],
    "src/auth/ is shared by every binding: it imports no binding (http, grpc), no Express and none of the app's wiring.",
    ["express", "**/http/*", "**/grpc/*", "**/server.js", "**/main.js", "**/agent.js", "**/cli.js"],
  ),
  layer(
    ["src/limits/**/*.ts"],
    "src/limits/ decides and counts per caller: of the A2A side it knows only the contract, and no binding.",
    ["**/a2a/*", "!**/a2a/contract", "!**/a2a/contract/*", "**/http/*", "**/grpc/*"],
  ),
  layer(
    ["src/demo/fake-model/**/*.ts"],
    "src/demo/fake-model/ is the scripted model (the tests' and the demo's): it imports nothing of ours outside it.",
    ["../*", "../../*"],
  ),
  layer(
    ["src/tracing/**/*.ts"],
    "src/tracing/ is a seam: it imports nothing of ours but config/.",
    ["../*", "!../config", "!../config/*"],
  ),
  layer(
    ["src/a2a/**/*.ts"],
    "the A2A side knows nothing of the bindings that carry it (http, grpc), of the fleet above it, or of the app's wiring.",
    [
      "**/http/*",
      "**/grpc/*",
      "**/fleet/*",
      "**/server.js",
      "**/main.js",
      "**/agent.js",
      "**/cli.js",
    ],
  ),
  layer(
    ["src/client/interaction.ts", "src/client/message-parts.ts"],
    "shared with the browser console (console/): Node-free, it imports only src/common/ and the contract's kinds and data parts.",
    [
      "node:*",
      "./*",
      "!./message-parts.js",
      "../*",
      "!../common",
      "!../common/*",
      "!../a2a",
      "../a2a/*",
      "!../a2a/contract",
      "../a2a/contract/*",
      "!../a2a/contract/kinds.js",
      "!../a2a/contract/data-parts.js",
    ],
  ),
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
