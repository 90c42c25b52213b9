#!/usr/bin/env bash
# Measures the request rate and latency of pages against a bare handler, in
# one run on loopback, with wrk (Debian package). Loads only 127.0.0.1, for a
# bounded time. Usage: scripts/load.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}; conns=${2:-50}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[ -x bin/selfmap ] || make build
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
app=$(free_port); bare=$(free_port)

go build -o "$tmp/barepage" ./scripts/barepage
"$tmp/barepage" -addr "127.0.0.1:$bare" & 
ADDR="127.0.0.1:$app" DATA_DIR="$tmp" LOG_LEVEL=error bin/selfmap serve >/dev/null &
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$app/healthz" >/dev/null && curl -sf "http://127.0.0.1:$bare/" >/dev/null && break; sleep 0.2; done

run() { # name url [header]
  local out; out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency ${3:+-H "$3"} "$2")
  printf '%-28s %10s req/s   p50 %8s   p99 %8s\n' "$1" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1=="50%" {print $2}' <<<"$out")" "$(awk '$1=="99%" {print $2}' <<<"$out")"
}
echo "wrk -t2 -c$conns -d${secs}s on $(nproc) cores, $(date -u +%F)"
run "bare handler (23 KB)" "http://127.0.0.1:$bare/"
run "home page /" "http://127.0.0.1:$app/"
run "home page / (gzip)" "http://127.0.0.1:$app/" "Accept-Encoding: gzip"
run "landing /landing/home" "http://127.0.0.1:$app/landing/home/BMBTI-1807"
run "landing /ja/landing/relax" "http://127.0.0.1:$app/ja/landing/relax/BMBTI-1807"
run "healthz" "http://127.0.0.1:$app/healthz"
