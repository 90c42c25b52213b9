#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on 127.0.0.1 for the test suite and
# prints the TEST_DATABASE_URL to use. Needs Debian's postgresql package.
#   eval "$(scripts/pg-start.sh)"   # exports TEST_DATABASE_URL
#   scripts/pg-stop.sh              # stops it and removes the data folder
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$bin" ] || { echo "postgresql is not installed (apt-get install postgresql)" >&2; exit 1; }
dir=${PGTEST_DIR:-/tmp/selfmap-pgtest}
port=${PGTEST_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ -f "$dir/port" ] && as_pg "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  port=$(cat "$dir/port")
else
  rm -rf "$dir"; mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
  echo "$port" > "$dir/port"
  as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE selfmap_test" >/dev/null
fi
echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/selfmap_test?sslmode=disable"
