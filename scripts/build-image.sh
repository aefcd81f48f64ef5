#!/usr/bin/env bash
# CI: builds the container image when a Docker daemon is reachable; otherwise says so and skips.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v docker >/dev/null 2>&1; then
  echo "build-image: docker is not installed; skipping the image build"
  exit 0
fi
if ! docker info >/dev/null 2>&1; then
  echo "build-image: no Docker daemon reachable; skipping the image build"
  exit 0
fi
docker build -t claude-a2a:ci .
docker run --rm --entrypoint node claude-a2a:ci /app/dist/cli.js --version
