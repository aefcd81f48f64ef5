# claude-a2a in a container: the server, its Claude Code runtime, and nothing else.
#   docker build -t claude-a2a .
#   docker run -p 127.0.0.1:3008:3008 -v "$PWD":/workspace -v claude-home:/home/claude/.claude \
#     -e ANTHROPIC_API_KEY claude-a2a
# See README "Container".

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Optional dependencies included: the Claude Code runtime ships as one.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# git and ripgrep are what Claude Code uses most in a workspace; ca-certificates for the API.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates git ripgrep \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 --shell /bin/bash claude \
  && mkdir -p /workspace /home/claude/.claude \
  && chown claude:claude /workspace /home/claude/.claude
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json config.schema.json README.md ./
USER claude
# The workspace Claude works in (its .claude/ holds the config, session map, store and inbox),
# and Claude Code's own state (login, transcripts: sessions resume only if this persists).
VOLUME ["/workspace", "/home/claude/.claude"]
EXPOSE 3008
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3008/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Inside the container the server must listen on every interface to be reachable through the
# published port; it refuses to unless the config says how callers are authenticated (see README).
ENTRYPOINT ["node", "/app/dist/cli.js", "--cwd", "/workspace", "--host", "0.0.0.0"]
