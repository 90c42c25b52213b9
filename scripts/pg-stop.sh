#!/usr/bin/env bash
# Stops the cluster scripts/pg-start.sh started and removes its data.
set -uo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
dir=${PGTEST_DIR:-/tmp/selfmap-pgtest}
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1
rm -rf "$dir"
