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

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: apt-get not found; install Chromium with your package manager, or set CHROMIUM_PATH (and tools.browser.executablePath) to a Chromium binary" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-chromium: run as root or install sudo (apt-get install needs root)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation
echo "install-chromium: installed $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))" >&2
