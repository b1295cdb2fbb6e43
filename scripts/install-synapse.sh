#!/usr/bin/env bash
# Installs Synapse (the Matrix homeserver from PyPI, pinned) into .synapse/venv for the Matrix
# end-to-end tests. Idempotent: does nothing when the pinned version is already there.
# Needs Python >= 3.10 with venv (or PYTHON=/path/to/python3) and access to PyPI on first run.
# The tests find it through .synapse/venv/bin/python, or SYNAPSE_PYTHON when set.
set -euo pipefail
cd "$(dirname "$0")/.."

SYNAPSE_VERSION="1.163.2"
VENV_DIR="${SYNAPSE_VENV:-.synapse/venv}"
PYTHON="${PYTHON:-python3}"

installed_version() {
  "$VENV_DIR/bin/python" -c 'import importlib.metadata as m; print(m.version("matrix-synapse"))' 2>/dev/null || true
}

if [ -x "$VENV_DIR/bin/python" ] && [ "$(installed_version)" = "$SYNAPSE_VERSION" ]; then
  echo "install-synapse: matrix-synapse $SYNAPSE_VERSION already in $VENV_DIR" >&2
  exit 0
fi

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "install-synapse: $PYTHON not found; install Python >= 3.10 (with venv) or set PYTHON=/path/to/python3" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  echo "install-synapse: matrix-synapse $SYNAPSE_VERSION needs Python >= 3.10, $PYTHON is $("$PYTHON" --version 2>&1); set PYTHON=/path/to/python3.10+" >&2
  exit 1
fi

echo "install-synapse: installing matrix-synapse $SYNAPSE_VERSION into $VENV_DIR" >&2
mkdir -p "$(dirname "$VENV_DIR")"
"$PYTHON" -m venv "$VENV_DIR"
"$VENV_DIR/bin/python" -m pip install --quiet --disable-pip-version-check "matrix-synapse==$SYNAPSE_VERSION"
echo "install-synapse: matrix-synapse $(installed_version) ready in $VENV_DIR" >&2
