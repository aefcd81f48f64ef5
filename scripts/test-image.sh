#!/usr/bin/env bash
# CI's container test (after scripts/build-image.sh): the image, run on a scratch workspace,
#   1. turns healthy by its own HEALTHCHECK;
#   2. answers a task sent from the host with our terminal client (`claude-a2a send`), on the
#      scripted model (src/demo/fake-model/, on the host's loopback; the container shares the
#      host's network), running a Bash command in Claude Code's sandbox: its write inside the
#      workspace lands in the mounted directory, its write outside is refused;
#   3. stops on SIGTERM (`stop`) with exit code 0.
# All traffic stays on 127.0.0.1: the server inside listens there (`--host 127.0.0.1`).
#
#   IMAGE=claude-a2a:ci   the image to test
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/image-engine.sh
. scripts/image-engine.sh

IMAGE=${IMAGE:-claude-a2a:ci}
started=$(date +%s)
fail() {
  image_log "test FAILED: $*"
  exit 1
}

node scripts/build-if-stale.js >/dev/null # the terminal client runs from dist/
tmp=$(mktemp -d)
name="claude-a2a-test-$$"
model_pid=""
cleanup() {
  engine rm -f "$name" >/dev/null 2>&1 || true
  if [ -n "$model_pid" ]; then kill "$model_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# The scripted model on the host's loopback, on a free port it prints.
node_modules/.bin/tsx test/support/fake-model-cli.ts --port 0 --script test/image/rules.json \
  >"$tmp/model.log" 2>&1 &
model_pid=$!
model_url=""
for _ in $(seq 1 300); do
  model_url=$(sed -n 's/^fake model listening on \(http:[^ ]*\).*/\1/p' "$tmp/model.log")
  [ -n "$model_url" ] && break
  kill -0 "$model_pid" 2>/dev/null || { cat "$tmp/model.log" >&2; fail "the scripted model did not start"; }
  sleep 0.1
done
[ -n "$model_url" ] || fail "the scripted model printed no URL within 30 s"

# A free port on the host's loopback for the server (the container shares the host's network).
port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')

workspace="$tmp/workspace"
home="$tmp/claude-home"
mkdir -p "$workspace/.claude" "$home"
# ── SANDBOX ──────────────────────────────────────────────────────────────────────────────────────
# The workspace runs under the server's `claude.sandbox: "strict"` preset (docs/sandbox.md), plus
# enableWeakerNestedSandbox, which a container that cannot mount /proc needs (docs/container.md).
cat >"$workspace/.claude/claude-a2a.config.json" <<'EOF'
{
  "claude": {
    "model": "claude-sonnet-4-5",
    "permissionMode": "acceptEdits",
    "sandbox": { "preset": "strict", "enableWeakerNestedSandbox": true }
  }
}
EOF
# ─────────────────────────────────────────────────────────────────────────────────────────────────
# The image's user (uid 10001) writes both directories.
chmod -R a+rwX "$workspace" "$home"

# --host/--port after the image name win over the image's own (parseArgs keeps the last);
# CLAUDE_A2A_PORT moves the image's health check with them.
health_flags=()
[ "$ENGINE" = docker ] && health_flags=(--health-interval=2s --health-start-period=60s)
run_at=$(date +%s)
engine run -d --name "$name" --network host "${health_flags[@]}" \
  -v "$workspace":/workspace -v "$home":/home/claude/.claude \
  -e CLAUDE_A2A_PORT="$port" \
  -e ANTHROPIC_BASE_URL="$model_url" -e ANTHROPIC_API_KEY=sk-ant-fake-key-for-the-image-test \
  -e CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 -e DISABLE_TELEMETRY=1 -e DISABLE_AUTOUPDATER=1 \
  -e DISABLE_ERROR_REPORTING=1 \
  "$IMAGE" --host 127.0.0.1 --port "$port" >/dev/null 2>"$tmp/engine.err" || {
  cat "$tmp/engine.err" >&2
  fail "the container did not start"
}
show_logs() {
  cat "$tmp/engine.err" >&2 2>/dev/null || true
  engine logs "$name" 2>&1 | tail -40 >&2 || true
}

# 1. Healthy by the image's HEALTHCHECK. Docker runs it on its interval; Podman without systemd
# has no timer to run it, so it is run here (`podman healthcheck run` runs the image's command).
healthy=""
for _ in $(seq 1 120); do
  if [ "$(engine inspect --format '{{.State.Running}}' "$name")" != true ]; then
    show_logs
    fail "the container stopped before it was healthy"
  fi
  if [ "$ENGINE" = podman ]; then
    engine healthcheck run "$name" >/dev/null 2>&1 && healthy=1
  else
    [ "$(engine inspect --format '{{.State.Health.Status}}' "$name")" = healthy ] && healthy=1
  fi
  [ -n "$healthy" ] && break
  sleep 1
done
[ -n "$healthy" ] || {
  show_logs
  fail "the container did not turn healthy within 2 minutes"
}
healthy_at=$(date +%s)

# 2. A task from the host, answered on the scripted model, its Bash command sandboxed.
set +e
answer=$(XDG_CONFIG_HOME="$tmp/client" NO_COLOR=1 timeout 120 \
  node dist/cli.js send --url "http://127.0.0.1:$port" --new --no-cost "container check" 2>&1)
code=$?
set -e
if [ "$code" != 0 ]; then
  echo "$answer" >&2
  show_logs
  fail "claude-a2a send exited $code, not 0 (a completed task)"
fi
echo "$answer" | sed 's/^/  answer: /' >&2
case "$answer" in
  *"CHECK sandboxed"*) ;;
  *)
    echo "$answer" >&2
    fail "the answer does not say the sandbox refused the write outside the workspace"
    ;;
esac
[ "$(cat "$workspace/inside.txt" 2>/dev/null)" = inside ] ||
  fail "the sandboxed command's write inside the workspace did not reach the mounted directory"
# Outside the workspace, where the image's user may write but a sandboxed command may not (its
# HOME is unreadable to commands under "strict": docs/sandbox.md).
engine exec "$name" test ! -e /tmp/outside-of-workspace.txt ||
  fail "the write outside the workspace left a file"

# 3. SIGTERM (tini hands it to the server): a graceful shutdown exits 0.
# (Podman without systemd complains here and at the start that it has no timer for the health
# check; that is kept out of the log unless something fails.)
engine stop -t 30 "$name" >/dev/null 2>>"$tmp/engine.err"
exit_code=$(engine inspect --format '{{.State.ExitCode}}' "$name")
if [ "$exit_code" != 0 ]; then
  show_logs
  fail "the container exited $exit_code on SIGTERM, not 0"
fi
image_log "test passed: healthy $((healthy_at - run_at)) s after start; a sandboxed task answered;" \
  "SIGTERM exit 0; $(($(date +%s) - started)) s in all"
