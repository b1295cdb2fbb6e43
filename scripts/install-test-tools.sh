#!/usr/bin/env bash
# Installs the Debian tools some tests drive: `systemd-analyze` (package systemd), which the
# gateway service test runs on the unit `openclaw gateway install` writes (the test never starts
# the unit), and `tmux`, the real terminal the `channels login` and `openclaw onboard` tests type
# into. Idempotent: installs only what is missing. Needs apt-get and root (or sudo) on first run.
set -euo pipefail

missing=()
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-test-tools: systemd-analyze and tmux already installed" >&2
  exit 0
fi

# Only the packages: installing systemd in a container does not make it PID 1 or start anything.
. "$(dirname "$0")/lib/apt-install.sh"
apt_install install-test-tools "${missing[@]}"
echo "install-test-tools: installed ${missing[*]}" >&2
