# claude-a2a in a container: the server, its Claude Code runtime, and nothing else.
#   docker build -t claude-a2a .     (or scripts/build-image.sh, which tags claude-a2a too)
# How to run it, with Docker and with Podman: docs/container.md, "Run it".
# test/unit/container.test.ts checks this file against the code; scripts/build-image.sh builds
# it (with Docker or Podman, offline too) and scripts/test-image.sh runs it in CI.

# The image both stages start from: the official Node image by default. Any Debian bookworm with
# node, npm, apt and useradd will do; scripts/image-base.sh makes one from Debian packages and the
# npm registry's Node package where no image registry is reachable (build-image.sh passes it).
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The dependencies in a layer of their own, keyed by package.json and the lockfile only: a change to
# the sources rebuilds from the next COPY on. Their `prepare` script (our build) has no sources yet
# here: it is taken out of this copy of package.json, and the build runs below. npm's download cache
# is kept between builds on one machine (a cache mount, outside the image).
COPY package.json package-lock.json ./
# Optional dependencies included: the Claude Code runtime ships as one.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
  npm pkg delete scripts.prepare \
  && npm ci --no-audit --no-fund \
  && test -d node_modules/@anthropic-ai/claude-agent-sdk
COPY package.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
COPY scripts/build-console.js ./scripts/
RUN npm run build \
  && test -f dist/cli.js \
  && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
# git and ripgrep are what Claude Code uses most in a workspace; ca-certificates for the API;
# tini as PID 1 forwards `docker stop`'s SIGTERM and reaps the processes Claude Code's background
# jobs leave behind (node would leave them as zombies); bubblewrap and socat are Claude Code's
# Linux sandbox (claude.sandbox; see docs/container.md for what it needs inside a container).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates git ripgrep tini bubblewrap socat \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 --shell /bin/bash claude \
  && mkdir -p /workspace /home/claude/.claude \
  && chown claude:claude /workspace /home/claude/.claude
# The mounted workspace belongs to whoever owns it on the host, rarely uid 10001: git inside
# refuses a repository owned by another user ("dubious ownership") unless told it is safe.
RUN git config --system --add safe.directory /workspace
ENV NODE_ENV=production
# Everything Claude Code keeps (login, settings, transcripts) in the one volume below.
ENV CLAUDE_CONFIG_DIR=/home/claude/.claude
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json config.schema.json README.md ./
# The Claude Code runtime (an optional package per platform) must be here: fail the build if not,
# and put it on PATH as `claude` (for `docker exec -it <container> claude` to log in).
RUN case "$(dpkg --print-architecture)" in \
      amd64) platform=linux-x64 ;; \
      arm64) platform=linux-arm64 ;; \
      *) echo "no Claude Code runtime for $(dpkg --print-architecture)" >&2; exit 1 ;; \
    esac \
  && runtime="/app/node_modules/@anthropic-ai/claude-agent-sdk-$platform/claude" \
  && test -x "$runtime" \
  && ln -s "$runtime" /usr/local/bin/claude
USER claude
# The workspace Claude works in (its .claude/ holds the config, session map, store and inbox),
# and Claude Code's own state (login, transcripts: sessions resume only if this persists).
VOLUME ["/workspace", "/home/claude/.claude"]
EXPOSE 3008
# CLAUDE_A2A_PORT moves the health check with a `--port` given after the image name (with host
# networking, where 3008 is taken on the host).
ENV CLAUDE_A2A_PORT=3008
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.CLAUDE_A2A_PORT + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Inside the container the server must listen on every interface to be reachable through the
# published port; it refuses to unless the config says how callers are authenticated (see
# docs/container.md). Publish port 3008 wherever you like on the host.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/cli.js", "--cwd", "/workspace", "--host", "0.0.0.0", "--port", "3008"]
