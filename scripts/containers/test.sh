#!/usr/bin/env bash
# `npm run test:containers`: the project's image and docker/compose.yaml, run for real with podman.
#  1. installs podman, podman-compose, runc, mmdebstrap, netavark, aardvark-dns, iptables (netavark
#     sets up the bridge with it; not every machine has it) and iproute2 (the test pins the bridge's
#     address with `ip`: tests/containers/compose-project.ts) from Debian where missing;
#  2. puts the base images in podman's store: pulled, or stand-ins where no registry answers
#     (scripts/containers/base-images.sh; cached between runs on the same machine);
#  3. builds the project's image from docker/Dockerfile and reports its size;
#  4. runs tests/containers with Jest: compose up, the checks through the edge and the tracker ports,
#     compose down (containers, network, volumes), also when a check fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export CONTAINERS_CONF="$PWD/tests/containers/containers.conf"
log() { printf 'test:containers: %s\n' "$*" >&2; }

missing=()
for tool in podman podman-compose runc mmdebstrap netavark aardvark-dns iptables ip; do
  command -v "$tool" >/dev/null || [[ -x "/usr/lib/podman/$tool" ]] || missing+=("$tool")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman podman-compose runc mmdebstrap netavark aardvark-dns iptables iproute2 >/dev/null
fi

# The ports compose publishes must be free: a stack left running would answer in our place.
for port in 8080 5055 5027 5023; do
  if timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
    log "port $port is in use; stop what listens there (podman-compose -p fleet-ci -f docker/compose.yaml down)"
    exit 1
  fi
done

bash scripts/containers/base-images.sh

# A machine that reaches the npm registry through a TLS-inspecting proxy trusts the proxy's CA in its
# own bundle only; the build's `npm ci` gets the same bundle, mounted for the build and not kept in
# the image. The machine's npm cache is mounted too, so a rebuild downloads nothing it already has.
build_args=(-v "$HOME/.npm:/root/.npm")
ca_file="${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}"
if [[ -n "$ca_file" && "$ca_file" != null && -f "$ca_file" ]]; then
  npmrc="$(mktemp)"
  trap 'rm -f "$npmrc"' EXIT
  echo "cafile=/etc/ssl/certs/machine-ca.crt" > "$npmrc"
  build_args+=(-v "$ca_file:/etc/ssl/certs/machine-ca.crt:ro" -v "$npmrc:/usr/local/etc/npmrc:ro")
fi
mkdir -p "$HOME/.npm"
log "building fleet-telemetry:local from docker/Dockerfile"
started=$SECONDS
podman build --quiet --format docker "${build_args[@]}" -f docker/Dockerfile -t fleet-telemetry:local . >/dev/null
size="$(podman image inspect --format '{{.Size}}' fleet-telemetry:local)"
base="$(podman image inspect --format '{{.Size}}' node:20-bookworm-slim)"
log "image built in $((SECONDS - started)) s: $((size / 1000000)) MB ($(((size - base) / 1000000)) MB on top of node:20-bookworm-slim)"

npx jest -c jest.containers.config.ts "$@"
