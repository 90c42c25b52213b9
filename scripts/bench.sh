#!/usr/bin/env bash
# make bench: every figure of docs/performance.md in one run, on loopback:
#  1. the Go benchmarks (landing render, scoring, money formatting, report
#     render, page cache);
#  2. the landing page beside its ceiling: the same bytes from a bare
#     net/http handler (scripts/barepage -file), wrk, 50 connections;
#  3. JavaScript and CSS bytes per key page (gzip, as served);
#  4. the visitor mix (cmd/loadmix) on SQLite and then on PostgreSQL (a
#     throwaway cluster), plus checkout create-and-pay at 100 buyers
#     (scripts/payload), with the server's peak memory;
#  5. Lighthouse, when chromium is present (BENCH_LIGHTHOUSE=0 skips it).
# Knobs: BENCH_WRK_SECONDS (10), BENCH_MIX_SECONDS (30), BENCH_VISITORS (50),
# BENCH_GO (1; 0 skips the Go benchmarks), BENCH_PG (1; 0 skips PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
wrk_secs=${BENCH_WRK_SECONDS:-10}; mix_secs=${BENCH_MIX_SECONDS:-30}; visitors=${BENCH_VISITORS:-50}
pgdir=/tmp/selfmap-bench-pg
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[ -x bin/selfmap ] || make build
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -d "$pgdir" ] && PGTEST_DIR=$pgdir scripts/pg-stop.sh
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
healthy() { for _ in $(seq 100); do curl -sf "$1" >/dev/null && return 0; sleep 0.2; done; echo "bench: $1 never answered" >&2; return 1; }

echo "# make bench, $(date -u '+%F %T') UTC"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB; $(go version | cut -d' ' -f3); load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${BENCH_GO:-1}" != 0 ]; then
  echo; echo "## Go benchmarks"; echo
  echo "| benchmark | ns/op | B/op | allocs/op |"; echo "| --- | ---: | ---: | ---: |"
  go test -run '^$' -bench . -benchmem ./handlers/ ./internal/exam/... ./internal/money/ ./internal/pagecache/ |
    awk '/^Benchmark/ { printf "| `%s` | %s | %s | %s |\n", $1, $3, $5, $7 }'
fi

go build -o "$tmp/barepage" ./scripts/barepage
go build -o "$tmp/loadmix" ./cmd/loadmix
go build -o "$tmp/payload" ./scripts/payload

# The demo data, so the pages show what visitors see.
app=$(free_port); bare=$(free_port)
DATA_DIR="$tmp/seeded" bin/selfmap seed >/dev/null 2>&1
DATA_DIR="$tmp/seeded" ADDR="127.0.0.1:$app" RATE_LIMIT_SCALE=10000 LOG_LEVEL=error bin/selfmap serve >/dev/null 2>&1 &
pids+=($!)
healthy "http://127.0.0.1:$app/healthz"
landing=/landing/home/BMBTI-1807
curl -sf "http://127.0.0.1:$app$landing" -o "$tmp/landing.html"
"$tmp/barepage" -addr "127.0.0.1:$bare" -file "$tmp/landing.html" &
pids+=($!)
healthy "http://127.0.0.1:$bare/"

echo; echo "## Landing page and its ceiling"; echo
echo "wrk -t2 -c50 -d${wrk_secs}s; the bare handler writes the landing's own $(wc -c <"$tmp/landing.html") bytes from memory"; echo
echo "| target | req/s | share of bare | p50 | p99 |"; echo "| --- | ---: | ---: | ---: | ---: |"
bare_rps=
wrk_row() { # name url [header]
  local out rps
  out=$(wrk -t2 -c50 -d"${wrk_secs}s" --latency ${3:+-H "$3"} "$2")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  [ -n "$bare_rps" ] || bare_rps=$rps
  printf '| %s | %.0f | %s %% | %s | %s |\n' "$1" "$rps" "$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN {printf "%.0f", 100*a/b}')" \
    "$(awk '$1=="50%" {print $2}' <<<"$out")" "$(awk '$1=="99%" {print $2}' <<<"$out")"
  if grep -q "Non-2xx\|Socket errors" <<<"$out"; then grep "Non-2xx\|Socket errors" <<<"$out" | sed 's/^/  /'; fi
}
wrk_row "bare handler, same bytes" "http://127.0.0.1:$bare/"
wrk_row "landing \`$landing\`" "http://127.0.0.1:$app$landing"
wrk_row "landing, gzip" "http://127.0.0.1:$app$landing" "Accept-Encoding: gzip"
wrk_row "home \`/\`" "http://127.0.0.1:$app/"

echo; echo "## Bytes per page (gzip, as served; first visit)"; echo
python3 - "http://127.0.0.1:$app" <<'PY'
import re, sys, urllib.request
base = sys.argv[1]
def get(path):
    req = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req) as r:
        return r.read(), r.headers.get("Content-Encoding") == "gzip"
def gz(path):
    body, zipped = get(path)
    if not zipped:
        import gzip
        return len(gzip.compress(body, 6))
    return len(body)
def raw(path):
    body, zipped = get(path)
    if zipped:
        import gzip
        body = gzip.decompress(body)
    return body.decode()
print("| page | HTML | CSS | JS loaded with the page | inline script | HTML + CSS |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for page in ["/", "/landing/home/BMBTI-1807", "/ja/landing/relax/BMBTI-1807", "/types/BMBTI-1807", "/answer/question/BMBTI-1807"]:
    html = raw(page)
    css = sum(gz(h) for h in re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', html))
    js_paths = set(re.findall(r'<script[^>]+src="([^"]+)"', html)) | set(re.findall(r'<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"', html))
    js = sum(gz(p) for p in js_paths)
    inline = sum(len(s.encode()) for s in re.findall(r'<script(?![^>]*type="application/(?:ld\+)?json")(?![^>]*src=)[^>]*>(.*?)</script>', html, re.S))
    h = gz(page)
    print(f"| `{page}` | {h:,} B | {css:,} B | {js:,} B | {inline:,} B | {h + css:,} B |")
PY

mix() { # label database-url
  local port; port=$(free_port)
  echo; echo "### Visitor mix, $1"
  "$tmp/loadmix" -url "http://127.0.0.1:$port" -duration "${mix_secs}s" -visitors "$visitors" -label "$1, saturation (no pause)" \
    -server "env ADDR=127.0.0.1:$port DATA_DIR=$tmp/$1 ${2:+DATABASE_URL=$2} RATE_LIMIT_SCALE=10000 LOG_LEVEL=error bin/selfmap serve" \
    -server-log "$tmp/$1.log"
  echo; echo "checkout create-and-pay, 100 buyers at once, 1 s pauses (scripts/payload -buyers 100 -n 400 -think 1s):"; echo
  env ADDR="127.0.0.1:$port" DATA_DIR="$tmp/$1" ${2:+DATABASE_URL=$2} RATE_LIMIT_SCALE=10000 LOG_LEVEL=error bin/selfmap serve >>"$tmp/$1.log" 2>&1 &
  local pid=$!; pids+=($pid)
  healthy "http://127.0.0.1:$port/healthz"
  "$tmp/payload" -url "http://127.0.0.1:$port" -buyers 100 -n 400 -think 1s | sed 's/^/    /'
  echo "    server peak RSS $(awk '/VmHWM/ {printf "%.1f MB", $2/1024}' /proc/$pid/status)"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
echo; echo "## Visitor mix (cmd/loadmix, $visitors visitors, ${mix_secs}s)"
mix sqlite ""
if [ "${BENCH_PG:-1}" != 0 ]; then
  url=$(PGTEST_DIR=$pgdir PGTEST_PORT=$(free_port) scripts/pg-start.sh | sed 's/^export TEST_DATABASE_URL=//')
  mix postgres "$url"
  PGTEST_DIR=$pgdir scripts/pg-stop.sh
fi

if [ "${BENCH_LIGHTHOUSE:-1}" != 0 ] && command -v chromium >/dev/null; then
  echo; echo "## Lighthouse (one run per page)"; echo
  scripts/lighthouse.sh 1
fi
