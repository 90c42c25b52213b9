#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on 127.0.0.1 for the test suite and
# prints the shell lines that export its TEST_DATABASE_URL and its folder
# (PGTEST_DIR), so that scripts/pg-stop.sh stops exactly this cluster. Needs
# Debian's postgresql package.
#   eval "$(scripts/pg-start.sh)"   # a fresh folder per run: /tmp/selfmap-pg.XXXXXX
#   scripts/pg-stop.sh              # stops it and removes its folder
# Two runs on one machine get two clusters, each on a free port.
#
# PGTEST_DIR=folder picks the folder (a cluster already running there is
# reused); the script then prints only the TEST_DATABASE_URL line, which
# scripts/bench.sh, soak.sh and two-instances.sh read. PGTEST_PORT=port
# picks the port.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$bin" ] || { echo "postgresql is not installed (apt-get install postgresql)" >&2; exit 1; }

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start DIR PORT: a new cluster in DIR (an empty folder) on PORT, with its
# test database.
start() {
  if [ "$(id -u)" = 0 ]; then chown postgres "$1" || return; fi
  as_pg "$bin/initdb" -D "$1/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null &&
  as_pg "$bin/pg_ctl" -D "$1/data" -l "$1/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $2 -k $1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null &&
  as_pg "$bin/psql" -h 127.0.0.1 -p "$2" -U postgres -qc "CREATE DATABASE selfmap_test" >/dev/null &&
  echo "$2" > "$1/port"
}

if [ -n "${PGTEST_DIR:-}" ]; then
  dir=$PGTEST_DIR
  if [ -f "$dir/port" ] && as_pg "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    port=$(cat "$dir/port")
  else
    rm -rf "$dir"; mkdir -p "$dir"
    port=${PGTEST_PORT:-$(free_port)}
    start "$dir" "$port"
  fi
  echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/selfmap_test?sslmode=disable"
  exit 0
fi

dir=$(mktemp -d /tmp/selfmap-pg.XXXXXX)
port=${PGTEST_PORT:-$(free_port)}
# Another run can take the free port between the probe and the start:
# without PGTEST_PORT, try twice more on new ports.
for try in 1 2 3; do
  start "$dir" "$port" && break
  if [ "$try" = 3 ] || [ -n "${PGTEST_PORT:-}" ]; then
    cat "$dir/log" >&2 || true
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    exit 1
  fi
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "${dir:?}/data" "$dir/log"
  port=$(free_port)
done
echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/selfmap_test?sslmode=disable"
echo "export PGTEST_DIR=$dir"
