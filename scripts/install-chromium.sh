#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tool's tests (and for a gateway that uses the
# browser tool). Idempotent: does nothing when `chromium` (or `chromium-browser`, or
# $CHROMIUM_PATH) is already there. Needs apt-get and root (or sudo) on first run.
# The tests find it through CHROMIUM_PATH when set, else `chromium` / `chromium-browser` on PATH.
set -euo pipefail

for candidate in "${CHROMIUM_PATH:-}" chromium chromium-browser; do
  if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
    echo "install-chromium: $(command -v "$candidate") already installed ($("$candidate" --version 2>/dev/null || echo 'version unknown'))" >&2
    exit 0
  fi
done

. "$(dirname "$0")/lib/apt-install.sh"
apt_install install-chromium chromium fonts-liberation
echo "install-chromium: installed $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))" >&2
