#!/usr/bin/env bash
# A bounded soak with injected faults (docs/reliability.md): the release
# binary on a throwaway PostgreSQL cluster of its own, the loadmix visitor
# mix with checkouts, the server SIGKILLed mid-checkout and restarted,
# PostgreSQL restarted under load, the sandbox's webhook deliveries replayed;
# then cmd/soakcheck checks the invariants from the database and exits
# non-zero when one fails. Loopback only; every loop bounded.
#   SOAK_SECONDS=600 scripts/soak.sh
# Knobs: SOAK_SECONDS (600), SOAK_VISITORS (40), SOAK_THINK (100ms),
# SOAK_KILLS (5), SOAK_PG_RESTARTS (2), SOAK_REPLAYS (3), SOAK_MAX_RSS_MB
# (120), SOAK_SETTLE (240s: the reconciler applies a delivery lost to a
# kill after two to three minutes), SOAK_OUT (where the record is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${SOAK_SECONDS:-600}
out=${SOAK_OUT:-bin/soak}
pgdir=${SOAK_PGDIR:-/tmp/selfmap-soak-pg}
[ "$pgdir" != /tmp/selfmap-pgtest ] || { echo "soak: refusing the test suite's cluster" >&2; exit 2; }
[ -x bin/selfmap ] || make build
mkdir -p "$out"; rm -f "$out"/*
tmp=$(mktemp -d)
settle_pid=
cleanup() {
  [ -n "$settle_pid" ] && kill "$settle_pid" 2>/dev/null && wait "$settle_pid" 2>/dev/null
  PGTEST_DIR=$pgdir scripts/pg-stop.sh
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
go build -o "$tmp/loadmix" ./cmd/loadmix
go build -o "$tmp/soakcheck" ./cmd/soakcheck

db=$(PGTEST_DIR=$pgdir PGTEST_PORT=$(free_port) scripts/pg-start.sh | sed 's/^export TEST_DATABASE_URL=//')
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
as_pg=""; [ "$(id -u)" = 0 ] && as_pg="runuser -u postgres --"
port=$(free_port)
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
server_env="ADDR=127.0.0.1:$port DATABASE_URL=$db SESSION_SECRET=$secret DATA_DIR=$tmp RATE_LIMIT_SCALE=10000 LOG_LEVEL=warn"

echo "soak: ${secs}s on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/loadmix" -url "http://127.0.0.1:$port" -duration "${secs}s" -visitors "${SOAK_VISITORS:-40}" -think "${SOAK_THINK:-100ms}" \
  -server "env $server_env bin/selfmap serve" -server-log "$out/server.log" \
  -kills "${SOAK_KILLS:-5}" -pg-restart "$as_pg $pgbin/pg_ctl -D $pgdir/data -m fast -w restart >/dev/null" -pg-restarts "${SOAK_PG_RESTARTS:-2}" \
  -replays "${SOAK_REPLAYS:-3}" -db "$db" -session-secret "$secret" -json "$out/record.json" -label "soak" | tee "$out/load.txt"

# The server again, without load, so the reconciler can apply what a kill
# left between the sandbox's books and our own.
env $server_env bin/selfmap serve >>"$out/server.log" 2>&1 &
settle_pid=$!
echo "soak: checking invariants (repeating database checks for up to ${SOAK_SETTLE:-240s} while the reconciler settles)"
"$tmp/soakcheck" -db "$db" -record "$out/record.json" -settle "${SOAK_SETTLE:-240s}" -max-rss-mb "${SOAK_MAX_RSS_MB:-120}" | tee "$out/check.txt"
