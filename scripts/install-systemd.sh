#!/usr/bin/env bash
# Installs Debian's systemd package for `systemd-analyze verify`, which the gateway service test
# runs on the unit `openclaw gateway install` writes (the test never starts the unit). Idempotent:
# does nothing when `systemd-analyze` is already on PATH. Needs apt-get and root (or sudo) on first run.
set -euo pipefail

if command -v systemd-analyze >/dev/null 2>&1; then
  echo "install-systemd: $(command -v systemd-analyze) already installed ($(systemd-analyze --version 2>/dev/null | head -n1 || echo 'version unknown'))" >&2
  exit 0
fi

# Only the package: installing it in a container does not make systemd PID 1 or start anything.
. "$(dirname "$0")/lib/apt-install.sh"
apt_install install-systemd systemd
echo "install-systemd: installed $(command -v systemd-analyze) ($(systemd-analyze --version | head -n1))" >&2
