#!/usr/bin/env bash
# Installs everything a fresh machine with only Node (>= 20.19) and npm needs:
# pnpm at the pinned version, then the workspace (which builds every package).
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION="12.4.2"
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm@$PNPM_VERSION with npm" >&2
  npm install --global "pnpm@$PNPM_VERSION" >/dev/null
fi

# pnpm 12 ignores npm's nodedir setting: point node-gyp at the running Node's own headers so
# native modules (better-sqlite3) build offline instead of downloading headers.
if [ -z "${npm_config_nodedir:-}" ]; then
  npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
  export npm_config_nodedir
fi

if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi
