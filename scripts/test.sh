#!/usr/bin/env bash
# The project's one test command (`npm test`, run by CI): lint, typecheck, unit tests, the
# integration and end-to-end tests against real infrastructure, then the container image and the
# compose stack run with podman (`npm run test:containers`, which installs what it needs). The Jest global setup builds the
# apps, starts a real Kafka broker (scripts/kafka.sh) unless KAFKA_BROKERS is set, and uses
# DATABASE_URL, else PostgreSQL on 127.0.0.1:5432, else an embedded PostgreSQL.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NX_DAEMON=false

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
step() { printf '\n=== %s\n' "$*"; }

step "lint"
npm run --silent lint
step "typecheck"
npm run --silent typecheck
step "unit tests"
npx jest -c jest.unit.config.ts --json --outputFile="$results/unit.json"
step "integration and end-to-end tests (real Kafka, real PostgreSQL)"
npx jest -c jest.integration.config.ts --json --outputFile="$results/integration.json"
step "container image and compose stack (podman)"
bash scripts/containers/test.sh --json --outputFile="$results/containers.json"

# One plain closing line for the three Jest runs.
node -e '
  const runs = process.argv.slice(1).map((file) => require(file));
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  console.log(`\n${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed, ${sum("numPendingTests")} skipped`);
' "$results/unit.json" "$results/integration.json" "$results/containers.json"
