#!/usr/bin/env bash
# Sets up the sandbox on this machine, pulling nothing from any image registry:
#   1. installs the Docker engine where it is missing (Debian's docker.io);
#   2. starts the daemon where it is not running (no bridge network: sandboxes use none);
#   3. makes the base image: BASE if given (e.g. python:3.12-slim where a registry is
#      reachable), else one bootstrapped from Debian's packages (debootstrap + docker import);
#   4. builds the sandbox image from this folder, with wheels downloaded on the host.
# Idempotent: what is already there is only checked. Usually run as
# `coderefine sandbox setup`, which passes the image tag for this version.
#
# usage: setup.sh --image TAG [--base IMAGE]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
image="" base="${CODEREFINE_SANDBOX_BASE:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    *) echo "setup.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$image" ] || { echo "setup.sh: --image TAG is required" >&2; exit 2; }
default_base="coderefine-base:bookworm"
base=${base:-$default_base}

say() { echo "sandbox setup: $*"; }
fail() { echo "sandbox setup: $*" >&2; exit 3; }
as_root() { [ "$(id -u)" = 0 ] || fail "$1 needs root: run this again as root, or do it yourself"; }

apt_install() {
  as_root "installing $*"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "$@" >/dev/null
}

# 1. the engine
if ! docker info >/dev/null 2>&1 && ! command -v dockerd >/dev/null; then
  say "installing the Docker engine (docker.io)"
  apt_install docker.io
fi
say "docker client: $(docker --version)"

# 2. the daemon
if ! docker info >/dev/null 2>&1; then
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    as_root "starting the Docker daemon"
    say "starting the Docker daemon (systemctl)"
    systemctl start docker
  else
    as_root "starting the Docker daemon"
    say "starting the Docker daemon (dockerd --bridge=none --iptables=false)"
    nohup dockerd --bridge=none --iptables=false >/var/log/coderefine-dockerd.log 2>&1 &
  fi
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || fail "the Docker daemon did not start: see /var/log/coderefine-dockerd.log"
fi
say "docker daemon: running ($(docker info --format '{{.ServerVersion}}'))"

# 3. the base image
if docker image inspect "$base" >/dev/null 2>&1; then
  say "base image: $base (present)"
elif [ "$base" != "$default_base" ]; then
  docker pull "$base" || fail "cannot pull base image $base: give a local one with --base or CODEREFINE_SANDBOX_BASE"
else
  command -v debootstrap >/dev/null || { say "installing debootstrap"; apt_install debootstrap; }
  as_root "bootstrapping the base image"
  rootfs=$(mktemp -d)
  trap 'rm -rf "$rootfs"' EXIT
  say "bootstrapping $base from Debian packages (about a minute)"
  debootstrap --variant=minbase --include=python3,python3-venv bookworm "$rootfs" >/dev/null \
    || fail "debootstrap failed"
  tar -C "$rootfs" -c . | docker import - "$base" >/dev/null
  rm -rf "$rootfs"
  trap - EXIT
  say "base image: $base (built)"
fi

# 4. the sandbox image
if docker image inspect "$image" >/dev/null 2>&1; then
  say "sandbox image: $image (present)"
  exit 0
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$here/Dockerfile" "$context/"
mkdir "$context/box"
(cd "$here" && find . -name '*.py' -not -path '*/__pycache__/*' -exec cp --parents {} "$context/box/" \;)
version=$(docker run --rm --network none "$base" python3 -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])') \
  || fail "the base image $base has no python3"
say "downloading wheels for Python $version in the sandbox"
log="$context/log"
python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
  --python-version "$version" -d "$context/wheels" hypothesis pytest pytest-benchmark coverage cloudpickle crosshair-tool >"$log" 2>&1 \
  || { tail -5 "$log" >&2; fail "could not download the sandbox's wheels (pip download)"; }
say "building $image"
docker build --quiet --network none --build-arg "BASE_IMAGE=$base" \
  --label coderefine.sandbox=image --label "coderefine.python=$version" \
  -t "$image" "$context" >"$log" 2>&1 || { tail -5 "$log" >&2; fail "docker build failed"; }
say "sandbox image: $image (built)"
