# Sourced by the image scripts (build-image.sh, image-base.sh, test-image.sh): picks the container
# engine and defines `engine`, which runs it with the flags this kind of machine needs.
#
#   CONTAINER_ENGINE=docker|podman   force one (default: Docker when `docker info` answers, else
#                                    Podman when installed)
#   PODMAN_RUNTIME=crun|runc         Podman's OCI runtime (default: runc when installed; crun cannot
#                                    set RLIMIT_NOFILE or use hybrid cgroups on these CI machines)
#   PODMAN_CGROUP_MANAGER=…          default: cgroupfs unless systemd runs the machine
#
# A client with no engine behind it fails, or with a stale socket hangs: every question is bounded.

image_log() { echo "image: $*" >&2; }

docker_answers() {
  command -v docker >/dev/null 2>&1 && timeout 15 docker info >/dev/null 2>&1
}

pick_engine() {
  case "${CONTAINER_ENGINE:-}" in
    docker | podman) echo "$CONTAINER_ENGINE" ;;
    "")
      if docker_answers; then
        echo docker
      elif command -v podman >/dev/null 2>&1; then
        echo podman
      else
        return 1
      fi
      ;;
    *)
      image_log "CONTAINER_ENGINE must be docker or podman, not '$CONTAINER_ENGINE'"
      return 2
      ;;
  esac
}

ENGINE=$(pick_engine) || {
  image_log "no container engine: 'docker info' did not answer and podman is not installed" \
    "(apt-get install podman runc)"
  exit 1
}

PODMAN_FLAGS=()
if [ "$ENGINE" = podman ]; then
  runtime=${PODMAN_RUNTIME:-}
  if [ -z "$runtime" ] && command -v runc >/dev/null 2>&1; then runtime=runc; fi
  [ -n "$runtime" ] && PODMAN_FLAGS+=(--runtime "$runtime")
  manager=${PODMAN_CGROUP_MANAGER:-}
  if [ -z "$manager" ] && [ ! -d /run/systemd/system ]; then manager=cgroupfs; fi
  [ -n "$manager" ] && PODMAN_FLAGS+=(--cgroup-manager "$manager")
  # Podman's default `nofile` ulimit for containers fails where the engine may not raise it (a CI
  # runner that is itself a container): containers inherit the engine's limits instead. Only when
  # the caller has not chosen a containers.conf of their own.
  if [ -z "${CONTAINERS_CONF:-}" ]; then
    CONTAINERS_CONF=${IMAGE_CACHE_DIR:-/var/cache/claude-a2a-image}/containers.conf
    mkdir -p "$(dirname "$CONTAINERS_CONF")"
    printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINERS_CONF"
    export CONTAINERS_CONF
  fi
fi

engine() {
  if [ "$ENGINE" = podman ]; then
    podman "${PODMAN_FLAGS[@]}" "$@"
  else
    docker "$@"
  fi
}

image_exists() {
  engine image inspect "$1" >/dev/null 2>&1
}
