#!/usr/bin/env bash
# Riverse in the peers benchmark (../shared/bench/peers): copies the harness to a temp folder,
# installs it, and runs it non-streaming and streaming with Riverse as an extra contender, every
# contender on the project's Node 24. Prints both tables. Takes about 10 minutes on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
harness="${PEERS_HARNESS:-$root/../shared/bench/peers}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$harness" "$work/peers"
chmod -R u+w "$work/peers"
export PATH="$root/node_modules/.bin:$PATH"
# The contender runs the compiled package, as an app that installs riverse does.
(cd "$root" && npm run build --silent)
cd "$work/peers"
npm ci --no-audit --no-fund --loglevel=error
export EXTRA_CONTENDERS="{\"riverse\":\"node $root/bench/peers-contender.mjs\"}"
node run.mjs | grep -v '^\[' || true
STREAM=1 node run.mjs | grep -v '^\[' || true
# Beside the peers' memory: the whole `riverse ask` command (instant model, one tool call).
(cd "$root" && BENCH_ONLY=ask node bench/author-loop.ts)
