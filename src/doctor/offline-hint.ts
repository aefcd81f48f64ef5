/**
 * What to do without any credentials, as `--check` and the server's startup warning say it:
 * serve this directory on a scripted model, or try the demo (docs/demo.md).
 */
export const OFFLINE_HINT =
  "to serve this directory offline on a scripted model: claude-a2a --scripted <rules.json> " +
  "(docs/demo.md; an example: docs/examples/scripted-rules.json); to try the demo: npm run demo, " +
  "or claude-a2a demo when installed";
