#!/usr/bin/env bash
# Stops the cluster scripts/pg-start.sh started and removes its folder: the
# one in PGTEST_DIR, which `eval "$(scripts/pg-start.sh)"` exported. Only a
# folder holding a cluster (data/, or pg-start.sh's port file) is removed.
set -uo pipefail
dir=${PGTEST_DIR:-}
if [ -z "$dir" ]; then
  echo "pg-stop.sh: PGTEST_DIR is not set; run it in the shell that ran eval \"\$(scripts/pg-start.sh)\", or as PGTEST_DIR=folder scripts/pg-stop.sh" >&2
  exit 1
fi
[ -e "$dir/data" ] || [ -e "$dir/port" ] || exit 0
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1
rm -rf "$dir"
