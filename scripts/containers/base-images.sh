#!/usr/bin/env bash
# Puts every base image that docker/Dockerfile and docker/compose.yaml name into podman's image
# store. An image already there is kept; otherwise it is pulled; where the pull fails (no registry
# reachable, as on this project's CI machines) the stand-in of tests/containers/stand-ins/ is built
# and tagged with the public name, so the Dockerfile and the compose file run unchanged.
# A stand-in is rebuilt only when its folder changed (label fleet.stand-in = hash of the folder).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
stand_ins="$repo/tests/containers/stand-ins"
debian=localhost/fleet-standin/debian:bookworm-slim
log() { echo "base-images: $*" >&2; }

# The images: FROM lines of the Dockerfile (not its own stages) and image: lines of the compose file
# that are not the project's image.
named_images() {
  awk 'toupper($1) == "FROM" && $2 ~ /:/ {print $2}' "$repo/docker/Dockerfile"
  awk '$1 == "image:" && $2 !~ /^fleet-telemetry/ {print $2}' "$repo/docker/compose.yaml"
}

# docker.io/library/node:20-bookworm-slim → node (the stand-in's folder).
stand_in_folder() {
  local name="${1%%:*}"
  echo "${name##*/}"
}

fully_qualified() {
  local name="$1"
  if [[ "$name" == */* ]]; then
    [[ "${name%%/*}" == *.* ]] && echo "$name" || echo "docker.io/$name"
    return
  fi
  echo "docker.io/library/$name"
}

folder_hash() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16); }

# The Debian bookworm root file system every stand-in starts from, about the size of
# debian:bookworm-slim: minbase, merged /usr without the usrmerge package, no docs, man pages or locales.
debian_base() {
  podman image exists "$debian" && return 0
  command -v mmdebstrap >/dev/null || { log "mmdebstrap is missing (apt-get install mmdebstrap)"; exit 1; }
  log "making $debian with mmdebstrap (once per machine)"
  local tar
  tar="$(mktemp --suffix=.tar)"
  mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    bookworm "$tar" http://deb.debian.org/debian
  podman import --quiet "$tar" "$debian" >/dev/null
  rm -f "$tar"
}

# Files a stand-in takes from this machine, copied into its build context.
stage_context() {
  local folder="$1" context="$2"
  case "$folder" in
    node)
      [[ "$(node --version)" == v20.* ]] || { log "the node stand-in needs this machine's Node 20, found $(node --version)"; exit 1; }
      cp "$(readlink -f "$(command -v node)")" "$context/node"
      cp -r "$(npm root -g)/npm" "$context/npm"
      ;;
    kafka)
      local libs
      libs="$(KAFKA_VERSION=3.9.1 bash "$repo/scripts/kafka.sh" fetch)"
      cp -r "$libs" "$context/libs"
      ;;
  esac
}

build_stand_in() {
  local image="$1" folder="$2" hash="$3"
  debian_base
  local context
  context="$(mktemp -d)"
  cp -r "$stand_ins/$folder/." "$context/"
  stage_context "$folder" "$context"
  log "building the stand-in for $image"
  podman build --quiet --label "fleet.stand-in=$hash" -t "$image" -f "$context/Containerfile" "$context" >/dev/null
  rm -rf "$context"
}

for name in $(named_images | sort -u); do
  image="$(fully_qualified "$name")"
  folder="$(stand_in_folder "$image")"
  [[ -d "$stand_ins/$folder" ]] || { log "no stand-in for $image (add tests/containers/stand-ins/$folder)"; exit 1; }
  hash="$(folder_hash "$stand_ins/$folder")"
  if podman image exists "$image"; then
    label="$(podman image inspect --format '{{ index .Labels "fleet.stand-in" }}' "$image")"
    # A pulled image has no label and is kept; a stand-in is kept while its folder is unchanged.
    if [[ -z "$label" || "$label" == "<no value>" || "$label" == "$hash" ]]; then
      log "$image: present"
      continue
    fi
  elif timeout 120 podman pull --quiet "$image" >/dev/null 2>&1; then
    log "$image: pulled"
    continue
  fi
  build_stand_in "$image" "$folder" "$hash"
  log "$image: stand-in built ($(podman image inspect --format '{{.Size}}' "$image" | numfmt --to=si)B)"
done
