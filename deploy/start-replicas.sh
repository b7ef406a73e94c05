#!/usr/bin/env bash
# Two `riverse serve` replicas on this machine (127.0.0.1:8401 and :8402) and HAProxy in front of
# them on :8400 (deploy/haproxy.cfg), all on one store: RIVERSE_DATABASE_URL (PostgreSQL), or a
# shared RIVERSE_DATA_DIR (SQLite, one machine only). Run it in your project folder (riverse.yaml,
# agent/tools/); Ctrl+C stops all three. The recipe: docs/replicas.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${RIVERSE_TOKEN:-}" ]; then
  echo 'error: set RIVERSE_TOKEN, which the replicas and the health check of HAProxy share: RIVERSE_TOKEN=$(openssl rand -hex 16)' >&2
  exit 2
fi
if [ -z "${RIVERSE_DATABASE_URL:-}" ] && [ -z "${RIVERSE_DATA_DIR:-}" ]; then
  echo "error: set RIVERSE_DATABASE_URL (postgres://user:password@host/db) or RIVERSE_DATA_DIR (one SQLite folder for both replicas)" >&2
  exit 2
fi
command -v haproxy >/dev/null || { echo "error: haproxy is not installed (apt-get install haproxy)" >&2; exit 2; }
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for port in 8401 8402; do
  npx riverse serve --host 127.0.0.1 --port "$port" &
  pids+=($!)
done
export RIVERSE_LISTEN="${RIVERSE_LISTEN:-*:8400}" RIVERSE_REPLICA_1=127.0.0.1:8401 RIVERSE_REPLICA_2=127.0.0.1:8402
haproxy -db -f "$here/haproxy.cfg" &
pids+=($!)
wait -n
