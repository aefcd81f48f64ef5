/** The variables that would send the runtime to a real model, or a real account. */
const REAL_MODEL_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_TMPDIR",
];

/**
 * The demo's Claude Code environment: the user's (PATH, HOME, a proxy's settings), without any
 * credential or model switch of theirs, pointed at the scripted model, with the runtime's config
 * and temporary folders of its own (its transcripts never mix with the user's `claude`), and no
 * traffic to any other host. Pure.
 */
export function demoEnv(
  env: NodeJS.ProcessEnv,
  o: { modelUrl: string; configDir: string; tmpDir: string },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !REAL_MODEL_VARIABLES.includes(name)) out[name] = value;
  }
  return {
    ...out,
    ANTHROPIC_BASE_URL: o.modelUrl,
    ANTHROPIC_API_KEY: "sk-ant-demo-scripted-model",
    CLAUDE_CONFIG_DIR: o.configDir,
    CLAUDE_CODE_TMPDIR: o.tmpDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
}
