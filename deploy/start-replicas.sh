#!/usr/bin/env bash
# Two `riverse serve` replicas on this machine (127.0.0.1:8401 and :8402) and HAProxy in front of
# them on :8400 (deploy/haproxy.cfg), all on one store: RIVERSE_DATABASE_URL (PostgreSQL), or a
# shared RIVERSE_DATA_DIR (SQLite, one machine only). Run it in your project folder (riverse.yaml,
# agent/tools/); Ctrl+C (or SIGTERM) stops all three. Other addresses, as haproxy.cfg names them:
# RIVERSE_LISTEN (HAProxy's, default *:8400), RIVERSE_REPLICA_1 and RIVERSE_REPLICA_2 (host:port).
# The recipe: docs/replicas.md.
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
# The project's riverse (npm install riverse), else one on PATH. Not through npx: npx does not pass
# a SIGTERM on to the command it runs, which would be left running.
riverse="node_modules/.bin/riverse"
[ -x "$riverse" ] || riverse="$(command -v riverse)" || {
  echo "error: riverse is not installed in this folder (npm install riverse) nor on PATH; run this script in your project folder" >&2
  exit 2
}
export RIVERSE_LISTEN="${RIVERSE_LISTEN:-*:8400}"
export RIVERSE_REPLICA_1="${RIVERSE_REPLICA_1:-127.0.0.1:8401}" RIVERSE_REPLICA_2="${RIVERSE_REPLICA_2:-127.0.0.1:8402}"

pids=()
# Each child is asked to stop (SIGTERM: a background job of a script ignores Ctrl+C's SIGINT) and
# waited for, so that no replica and no HAProxy is left behind, whichever way the script ends.
stop() {
  trap - EXIT INT TERM
  [ "${#pids[@]}" -eq 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

for replica in "$RIVERSE_REPLICA_1" "$RIVERSE_REPLICA_2"; do
  "$riverse" serve --host "${replica%:*}" --port "${replica##*:}" &
  pids+=($!)
done
haproxy -db -f "$here/haproxy.cfg" &
pids+=($!)
# The first of them to stop (a port in use, a store that cannot be opened) stops the others.
wait -n
