#!/usr/bin/env bash
# Builds the container image with Docker where it answers (`docker info` succeeds), Podman
# otherwise. Where the Dockerfile's default base (the official Node image) is neither on this
# machine nor pullable (its registry does not answer within a few seconds), it builds that base
# from Debian packages and the npm registry's Node package (scripts/image-base.sh) and passes it
# as the BASE_IMAGE build argument. scripts/test-image.sh then runs the image; docs/container.md
# says what each step costs and what is cached.
#
#   IMAGE=claude-a2a         the tag to build (the one docs/container.md "Run it" runs)
#   BASE_IMAGE=<image>       use this base, no question asked (e.g. a mirror of node:20)
#   IMAGE_OFFLINE_BASE=1     build the Debian base even when a registry answers
#   CONTAINER_ENGINE, PODMAN_RUNTIME, PODMAN_CGROUP_MANAGER: see scripts/image-engine.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/image-engine.sh
. scripts/image-engine.sh

IMAGE=${IMAGE:-claude-a2a}
default_base=$(sed -n 's/^ARG BASE_IMAGE=//p' Dockerfile)
started=$(date +%s)

# The registry an image reference is pulled from: its first component when that names a host,
# else Docker Hub's.
registry_of() {
  local first=${1%%/*}
  if [ "$first" != "$1" ] && { [[ $first == *.* ]] || [[ $first == *:* ]] || [ "$first" = localhost ]; }; then
    echo "$first"
  else
    echo registry-1.docker.io
  fi
}
# Any HTTP answer from its /v2/ (401 included) means it is reachable; a DNS failure, a refused or
# silent connection within 5 s means it is not. Never a pull that hangs.
registry_answers() {
  local url="https://$(registry_of "$1")/v2/"
  if command -v curl >/dev/null 2>&1; then
    [ "$(curl -s -o /dev/null --max-time 5 -w '%{http_code}' "$url" || true)" != 000 ]
  else
    node -e "fetch(process.argv[1], { signal: AbortSignal.timeout(5000) }).then(() => process.exit(0), () => process.exit(1))" "$url"
  fi
}

if [ -n "${BASE_IMAGE:-}" ]; then
  base=$BASE_IMAGE
  why="BASE_IMAGE"
elif [ "${IMAGE_OFFLINE_BASE:-}" != 1 ] && image_exists "$default_base"; then
  base=$default_base
  why="the Dockerfile's default, already on this machine"
elif [ "${IMAGE_OFFLINE_BASE:-}" != 1 ] && registry_answers "$default_base"; then
  base=$default_base
  why="the Dockerfile's default, from $(registry_of "$default_base")"
else
  why="no image registry answered: Debian packages and the npm registry's Node"
  [ "${IMAGE_OFFLINE_BASE:-}" = 1 ] && why="IMAGE_OFFLINE_BASE=1"
  base=$(scripts/image-base.sh)
fi
base_done=$(date +%s)
image_log "building $IMAGE with $ENGINE on $base ($why)"

build_args=(build --build-arg "BASE_IMAGE=$base" -t "$IMAGE")
# Podman's build containers reach apt and npm through the host's network, as the host does
# (its default bridge network needs DNS and routes a CI runner may not give it). The docker
# format: the OCI image format has no HEALTHCHECK (Podman would drop it with a warning). Two jobs:
# the final stage's apt step runs while the build stage installs and compiles (BuildKit does so
# by itself).
[ "$ENGINE" = podman ] && build_args+=(--network host --layers --format docker --jobs 2)
old_id=$(engine image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
engine "${build_args[@]}" .
new_id=$(engine image inspect --format '{{.Id}}' "$IMAGE")
# The image this tag named before is garbage now (its layers shared with the new one stay).
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
  engine rmi "$old_id" >/dev/null 2>&1 || true
fi

engine run --rm --no-healthcheck --entrypoint node "$IMAGE" /app/dist/cli.js --version
engine run --rm --no-healthcheck --entrypoint claude "$IMAGE" --version
done_at=$(date +%s)
image_log "built $IMAGE in $((done_at - started)) s (base $((base_done - started)) s," \
  "image $((done_at - base_done)) s)"
