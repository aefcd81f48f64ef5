#!/usr/bin/env bash
# CI's container test (after scripts/build-image.sh): the image, run with the commands of
# docs/container.md's "Run it", taken from the doc word for word (the blocks after its
# `<!-- run-it: NAME -->` comments), only the image tag, the container's and the volume's names,
# the port and the model's URL put in. On a scratch workspace, it
#   1. prepares the workspace as documented (uid 10001, safe.directory), and the host's git still
#      accepts it;
#   2. passes `--check` with the documented strict sandbox config, and fails it without
#      enableWeakerNestedSandbox, naming that key (the container cannot mount /proc);
#   3. turns healthy by its own HEALTHCHECK;
#   4. answers a task sent from the host with our terminal client (`claude-a2a send`), on the
#      scripted model (src/demo/fake-model/, on the host's loopback; the container shares the
#      host's network), running a Bash command in Claude Code's sandbox: its write inside the
#      workspace lands in the mounted directory, its write outside is refused;
#   5. stops on SIGTERM (`stop`) with exit code 0;
#   6. run as documented with its port published on the host's loopback, answers /healthz there.
# All traffic stays on 127.0.0.1: the server inside listens there (`--host 127.0.0.1`).
#
#   IMAGE=claude-a2a   the image to test
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/image-engine.sh
. scripts/image-engine.sh

IMAGE=${IMAGE:-claude-a2a}
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
  engine rm -f "$name" "$name-pub" >/dev/null 2>&1 || true
  engine volume rm -f "$name-home" "$name-pub-home" >/dev/null 2>&1 || true
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

# The block of docs/container.md after `<!-- run-it: $1 -->`, or a failure.
doc_block() {
  local text
  text=$(awk -v want="<!-- run-it: $1 -->" '
    $0 == want { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' docs/container.md)
  [ -n "$text" ] || fail "docs/container.md has no block after <!-- run-it: $1 -->"
  printf '%s\n' "$text"
}
# Runs documented commands in the workspace, as its user would: HOME (so git's global config and
# Podman's containers.conf) in the scratch directory, the engine's settings only as the doc gives
# them. As root without sudo (a CI runner), `sudo` is the command itself.
host_home="$tmp/host-home"
mkdir -p "$host_home"
as_documented() {
  (
    cd "$1"
    export HOME="$host_home" ANTHROPIC_API_KEY=sk-ant-fake-key-for-the-image-test
    unset CONTAINERS_CONF GIT_CONFIG_GLOBAL
    if ! command -v sudo >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      sudo() { "$@"; }
      export -f sudo
    fi
    bash -euo pipefail -c "$2"
  )
}

# 1. The workspace, a git repository with the documented strict sandbox config, prepared as
# documented; the host's git (here root, not its owner) still accepts it.
workspace="$tmp/workspace"
mkdir -p "$workspace/.claude"
git init -q "$workspace"
doc_block sandbox-config >"$workspace/.claude/claude-a2a.config.json"
prepare=$(doc_block workspace)
as_documented "$workspace" "$prepare" || fail "the documented workspace commands failed"
HOME="$host_home" env -u GIT_CONFIG_GLOBAL git -C "$workspace" status --short >/dev/null ||
  fail "the host's git refuses the workspace after the documented commands"

# 2. `--check` in the image: passes with the documented config; fails without
# enableWeakerNestedSandbox, naming it (this container cannot mount /proc for bubblewrap).
check_in_image() {
  engine run --rm --no-healthcheck --network host -v "$1":/workspace \
    -e ANTHROPIC_BASE_URL="$model_url" -e ANTHROPIC_API_KEY=sk-ant-fake-key-for-the-image-test \
    -e CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    "$IMAGE" --host 127.0.0.1 --port "$port" --check 2>&1
}
checked=$(check_in_image "$workspace") || {
  echo "$checked" >&2
  fail "--check fails with the documented sandbox config"
}
echo "$checked" | grep -q '^ok    sandbox: on (strict)' || {
  echo "$checked" >&2
  fail "--check does not report the strict sandbox on"
}
no_key="$tmp/no-key"
mkdir -p "$no_key/.claude"
echo '{ "claude": { "sandbox": "strict" } }' >"$no_key/.claude/claude-a2a.config.json"
chown -R 10001 "$no_key"
if checked=$(check_in_image "$no_key"); then
  echo "$checked" >&2
  fail '--check passes with "strict" and no enableWeakerNestedSandbox'
fi
case "$checked" in
  *"Can't mount proc"*"set claude.sandbox.enableWeakerNestedSandbox to true"*) ;;
  *)
    echo "$checked" >&2
    fail "--check without enableWeakerNestedSandbox does not name the key"
    ;;
esac

# 3. The documented run with a model on the host's loopback.
run=$(doc_block "$ENGINE-local-model" | sed \
  -e "s|--name claude-a2a |--name $name |" \
  -e "s|claude-home:|$name-home:|" \
  -e "s|3008|$port|g" \
  -e "s|http://127.0.0.1:4000|$model_url|" \
  -e "s|^\( *\)claude-a2a |\1$IMAGE |")
setup=""
[ "$ENGINE" = podman ] && setup=$(doc_block podman-setup)
run_at=$(date +%s)
as_documented "$workspace" "$setup
$run" >/dev/null 2>"$tmp/engine.err" || {
  cat "$tmp/engine.err" >&2
  fail "the documented run did not start the container"
}
show_logs() { # [container]
  cat "$tmp/engine.err" >&2 2>/dev/null || true
  engine logs "${1:-$name}" 2>&1 | tail -40 >&2 || true
}
# 3. Healthy by the image's HEALTHCHECK. Docker runs it on its interval; Podman without systemd
# has no timer to run it, so it is run here (`podman healthcheck run` runs the image's command).
wait_healthy() { # container
  local healthy=""
  for _ in $(seq 1 120); do
    if [ "$(engine inspect --format '{{.State.Running}}' "$1")" != true ]; then
      show_logs "$1"
      fail "the container stopped before it was healthy"
    fi
    if [ "$ENGINE" = podman ]; then
      engine healthcheck run "$1" >/dev/null 2>&1 && healthy=1
    else
      [ "$(engine inspect --format '{{.State.Health.Status}}' "$1")" = healthy ] && healthy=1
    fi
    [ -n "$healthy" ] && return 0
    sleep 1
  done
  show_logs "$1"
  fail "the container did not turn healthy within 2 minutes"
}
wait_healthy "$name"
healthy_at=$(date +%s)

# 4. A task from the host, answered on the scripted model, its Bash command sandboxed.
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

# 5. SIGTERM (tini hands it to the server): a graceful shutdown exits 0.
# (Podman without systemd complains here and at the start that it has no timer for the health
# check; that is kept out of the log unless something fails.)
engine stop -t 30 "$name" >/dev/null 2>>"$tmp/engine.err"
exit_code=$(engine inspect --format '{{.State.ExitCode}}' "$name")
if [ "$exit_code" != 0 ]; then
  show_logs
  fail "the container exited $exit_code on SIGTERM, not 0"
fi

# 6. The documented run with the port published on the host's loopback (the engine's own network,
# the server on 0.0.0.0 inside, the documented config): healthy, and its /healthz answers on the
# host. No task: the scripted model is on the host's loopback, out of this container's reach.
published="$tmp/published"
mkdir -p "$published/.claude"
doc_block published-config >"$published/.claude/claude-a2a.config.json"
as_documented "$published" "$prepare" || fail "the documented workspace commands failed"
port2=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
published_run=$(doc_block "$ENGINE" | sed \
  -e "s|--name claude-a2a |--name $name-pub |" \
  -e "s|claude-home:|$name-pub-home:|" \
  -e "s|127.0.0.1:3008:|127.0.0.1:$port2:|" \
  -e "s| claude-a2a$| $IMAGE|")
as_documented "$published" "$setup
$published_run" >/dev/null 2>"$tmp/engine.err" || {
  cat "$tmp/engine.err" >&2
  fail "the documented run with a published port did not start the container"
}
wait_healthy "$name-pub"
node -e "fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" \
  "http://127.0.0.1:$port2/healthz" || {
  show_logs "$name-pub"
  fail "the published port does not answer /healthz on the host's loopback"
}
engine stop -t 30 "$name-pub" >/dev/null 2>>"$tmp/engine.err"

image_log "test passed: --check with and without the key; healthy $((healthy_at - run_at)) s" \
  "after start; a sandboxed task answered; SIGTERM exit 0; the published port answered;" \
  "$(($(date +%s) - started)) s in all"
