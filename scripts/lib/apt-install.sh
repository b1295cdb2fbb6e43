# Sourced by scripts/install-*.sh: `apt_install <script-name> <package>...` installs Debian
# packages with apt-get (through sudo when not root), or exits 1 saying why it cannot.
apt_install() {
  local name="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name: apt-get not found; install $* with your package manager" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "$name: run as root or install sudo (apt-get install needs root)" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "$@"
}
