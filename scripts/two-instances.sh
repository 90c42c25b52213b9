#!/usr/bin/env bash
# Two Selfmap instances behind nginx, sharing one PostgreSQL (issue 8). It
# starts a PostgreSQL cluster of its own, an SMTP sink, two `bin/selfmap
# serve` on loopback with one DATABASE_URL and SESSION_SECRET, and nginx
# round-robin in front, then shows, failing with a non-zero exit if not:
#   (a) a session and CSRF token from one instance are good on the other;
#   (b) each job runs once: mail is delivered once, every job is worked by
#       one instance, one attempt, and one instance leads the periodic jobs;
#   (c) the log-in limit holds across instances: 429 after the configured
#       burst, not twice it, whether requests alternate between the
#       upstreams or come through nginx with forged X-Forwarded-For headers;
#   (d) with one instance killed, nginx keeps serving through the other.
# Loopback only, bounded in time (TIMEOUT seconds), everything stopped and
# removed at exit.
#   make two-instances       # builds bin/selfmap, then runs this
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-bin/selfmap}
NGINX=${NGINX:-/usr/sbin/nginx}
TIMEOUT=${TIMEOUT:-300}
# Our own cluster: never the test suite's /tmp/selfmap-pgtest.
PGDIR=/tmp/selfmap-2i-pg
# The auth limit of handlers/routes.go at RATE_LIMIT_SCALE=1: ten tries.
AUTH_BURST=10

[ -x "$BIN" ] || { echo "no $BIN: run make build (or make two-instances)" >&2; exit 2; }
[ -x "$NGINX" ] || { echo "no nginx at $NGINX (apt-get install nginx-light)" >&2; exit 2; }
for tool in curl psql python3 go; do
  command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 2; }
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
say() { printf '%s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d --suffix=-selfmap-2i)
chmod 755 "$work" # nginx's workers (nobody, when started as root) read below it
pids=()
watchdog=
cleanup() {
  status=$?
  trap - EXIT INT TERM
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  [ -f "$work/nginx/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  PGTEST_DIR=$PGDIR scripts/pg-stop.sh
  if [ "$status" -ne 0 ] && [ -d "$work" ]; then
    for f in "$work"/*.log "$work"/nginx/*.log; do
      [ -s "$f" ] && { echo "--- last lines of $(basename "$f")"; tail -n 15 "$f"; } >&2
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
(
  sleep "$TIMEOUT" &
  trap 'kill $! 2>/dev/null; exit 0' TERM
  wait $!
  echo "FAIL: timed out after ${TIMEOUT}s" >&2
  kill -TERM $$
) &
watchdog=$!

# PostgreSQL, the SMTP sink, two instances, nginx.
PGTEST_DIR=$PGDIR scripts/pg-stop.sh
pg_port=$(free_port)
db=$(PGTEST_DIR=$PGDIR PGTEST_PORT=$pg_port scripts/pg-start.sh | sed 's/^export TEST_DATABASE_URL=//')
sql() { psql "$db" -XAtqc "$1"; }

smtp_port=$(free_port)
go build -o "$work/smtpsink" ./scripts/smtpsink
touch "$work/delivered.txt"
"$work/smtpsink" -addr "127.0.0.1:$smtp_port" -out "$work/delivered.txt" 2>"$work/smtpsink.log" &
pids+=($!)

port_a=$(free_port); port_b=$(free_port); port_n=$(free_port)
secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
start_instance() { # name port
  mkdir -p "$work/data-$1"
  env ADDR="127.0.0.1:$2" DATABASE_URL="$db" SESSION_SECRET="$secret" BASE_URL="http://127.0.0.1:$port_n" \
    TRUSTED_PROXIES=127.0.0.1/32 MAIL_URL="smtp://127.0.0.1:$smtp_port?tls=none" DATA_DIR="$work/data-$1" \
    APP_ENV=dev RATE_LIMIT_SCALE=1 LOG_LEVEL=warn "$BIN" serve >"$work/instance-$1.log" 2>&1 &
  pids+=($!)
}
# Both at once: the start-up lock lets one migrate while the other waits.
start_instance a "$port_a"
pid_a=$!
start_instance b "$port_b"

mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
  log_format upstream '\$request_method \$uri \$status \$upstream_addr';
  access_log $work/nginx/access.log upstream;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  upstream selfmap {
    server 127.0.0.1:$port_a max_fails=1 fail_timeout=10s;
    server 127.0.0.1:$port_b max_fails=1 fail_timeout=10s;
    keepalive 16;
  }
  server {
    listen 127.0.0.1:$port_n;
    client_max_body_size 4m;
    location / {
      proxy_pass http://selfmap;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      # Replace, never append to, what the client sent: the app trusts
      # this header from 127.0.0.1 only (TRUSTED_PROXIES).
      proxy_set_header X-Forwarded-For \$remote_addr;
      proxy_set_header X-Real-IP \$remote_addr;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
EOF

wait_ok() { # url: up to 30 s for a 200
  for _ in $(seq 1 150); do
    curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  fail "no answer from $1"
}
wait_ok "http://127.0.0.1:$port_a/healthz"
wait_ok "http://127.0.0.1:$port_b/healthz"
"$NGINX" -c "$work/nginx/nginx.conf" -p "$work/nginx" -e "$work/nginx/error.log"
wait_ok "http://127.0.0.1:$port_n/healthz"
say "up: instance A 127.0.0.1:$port_a, instance B 127.0.0.1:$port_b, nginx 127.0.0.1:$port_n, PostgreSQL 127.0.0.1:$pg_port"
say "    schema migrated once: $(sql 'SELECT COUNT(*) FROM schema_migrations') steps recorded, both instances serving"

# curl helpers: a cookie jar per visitor; X-Forwarded-For names the client
# when a request goes to an upstream directly (127.0.0.1 is trusted, as
# nginx is).
page() { # jar url [curl args]: prints the body
  local jar=$1 url=$2; shift 2
  curl -sS --max-time 10 -b "$jar" -c "$jar" "$@" "$url"
}
status() { # jar url [curl args]: prints the status code
  local jar=$1 url=$2; shift 2
  curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -b "$jar" -c "$jar" "$@" "$url"
}
csrf() { page "$@" | grep -o 'name="_csrf" value="[^"]*"' | head -n1 | sed 's/.*value="//; s/"$//'; }

A=http://127.0.0.1:$port_a
B=http://127.0.0.1:$port_b
N=http://127.0.0.1:$port_n

# (a) Sessions across instances.
jar=$work/ada.jar
token=$(csrf "$jar" "$A/user/register" -H 'X-Forwarded-For: 198.51.100.10')
[ -n "$token" ] || fail "(a) no CSRF token on A's register page"
code=$(status "$jar" "$B/user/register" -H 'X-Forwarded-For: 198.51.100.10' --data-urlencode "_csrf=$token" \
  --data-urlencode 'name=Ada Lovelace' --data-urlencode 'email=ada@example.com' \
  --data-urlencode 'password=correct horse battery' --data-urlencode 'confirm=correct horse battery' --data-urlencode 'agree=1')
[ "$code" = 303 ] || fail "(a) register on B with A's token: $code, want 303"
# Registering signs nobody in until the mailed code is entered (issue 14):
# read Ada's code from the outbox and enter it on A.
mailed=""
for _ in $(seq 1 20); do
  mailed=$(sql "SELECT body FROM mail_outbox WHERE to_address = 'ada@example.com' ORDER BY created_at DESC LIMIT 1" | grep -oE '\b[0-9]{6}\b' | head -n1)
  [ -n "$mailed" ] && break
  sleep 0.5
done
[ -n "$mailed" ] || fail "(a) no code mailed to Ada"
token=$(csrf "$jar" "$A/user/verify" -H 'X-Forwarded-For: 198.51.100.10')
code=$(status "$jar" "$A/user/verify" -H 'X-Forwarded-For: 198.51.100.10' --data-urlencode "_csrf=$token" --data-urlencode "code=$mailed")
[ "$code" = 303 ] || fail "(a) Ada's code on A: $code, want 303"
for base in "$A" "$B" "$N"; do
  body=$(page "$jar" "$base/userCenter")
  grep -q 'data-testid="uc-status"' <<<"$body" || fail "(a) $base/userCenter does not show the signed-in user"
done
say "ok  (a) CSRF token from A accepted by B (register: 303), the mailed code entered on A; the session opens /userCenter on A, on B and through nginx"

# (b) Each job runs once. Four more visitors register (each is mailed a
# code), two on each instance, from addresses of their own (so that the
# log-ins of (c) through nginx start from a full bucket).
n=0
for who in bo cy di ed; do
  n=$((n + 1))
  j=$work/$who.jar
  base=$([ $((n % 2)) = 1 ] && echo "$A" || echo "$B")
  t=$(csrf "$j" "$base/user/register")
  code=$(status "$j" "$base/user/register" -H "X-Forwarded-For: 198.51.100.$((20 + n))" --data-urlencode "_csrf=$t" \
    --data-urlencode "name=$who" --data-urlencode "email=$who@example.com" --data-urlencode 'password=correct horse battery' \
    --data-urlencode 'confirm=correct horse battery' --data-urlencode 'agree=1')
  [ "$code" = 303 ] || fail "(b) register $who on $base: $code"
done
queued=$(sql "SELECT COUNT(*) FROM mail_outbox")
for _ in $(seq 1 60); do
  [ "$(wc -l <"$work/delivered.txt")" -ge "$queued" ] && break
  sleep 1
done
[ "$(wc -l <"$work/delivered.txt")" -ge "$queued" ] || fail "(b) $queued mails queued, $(wc -l <"$work/delivered.txt") delivered after 60 s"
# One more send_mail period (15 s) on both instances: nothing may go twice.
sleep 17
delivered=$(wc -l <"$work/delivered.txt")
doubled=$(sort "$work/delivered.txt" | uniq -d | wc -l)
unsent=$(sql "SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL")
[ "$delivered" = "$queued" ] && [ "$doubled" = 0 ] && [ "$unsent" = 0 ] ||
  fail "(b) $queued mails queued, $delivered delivered ($doubled addresses twice), $unsent unsent"
leaders=$(sql "SELECT COUNT(*) FROM river_leader")
multi=$(sql "SELECT COUNT(*) FROM river_job WHERE cardinality(attempted_by) > 1 OR attempt > 1")
workers=$(sql "SELECT COUNT(DISTINCT attempted_by[1]) FROM river_job WHERE state = 'completed'")
runs=$(sql "SELECT string_agg(kind || '=' || n, ' ' ORDER BY kind) FROM (SELECT kind, COUNT(*) n FROM river_job GROUP BY kind) k")
startups=$(sql "SELECT string_agg(kind || '=' || n, ' ' ORDER BY kind) FROM (SELECT kind, COUNT(*) n FROM river_job WHERE kind IN ('prune_email_codes', 'prune_rate_limits', 'reconcile_payments', 'renew_subscriptions') GROUP BY kind) k")
[ "$leaders" = 1 ] && [ "$multi" = 0 ] || fail "(b) $leaders leaders; $multi jobs attempted more than once"
for kind in prune_email_codes prune_rate_limits; do
  [ "$(sql "SELECT COUNT(*) FROM river_job WHERE kind = '$kind'")" = 1 ] || fail "(b) $kind scheduled $(sql "SELECT COUNT(*) FROM river_job WHERE kind = '$kind'") times at start, want once"
done
say "ok  (b) $queued mails queued, $delivered delivered, none twice; one leader ($(sql 'SELECT leader_id FROM river_leader'))"
say "        jobs: $runs; each worked once (one attempt, one client; $workers client(s) did work)"
say "        run-on-start jobs scheduled once for two starts (the leader schedules; each kind is unique per period too): $startups"

# (c) The log-in limit holds across instances.
logins() { # label url-picker forged-xff: prints the codes of 2*burst tries
  local jar=$work/limit-$1.jar codes=() i url t
  t=$(csrf "$jar" "$($2 0)/user/login")
  for i in $(seq 1 $((2 * AUTH_BURST))); do
    url=$($2 "$i")
    local xff=${3:-203.0.113.$i}
    codes+=("$(status "$jar" "$url/user/login" -H "X-Forwarded-For: $xff" --data-urlencode "_csrf=$t" \
      --data-urlencode "email=nobody$i@example.com" --data-urlencode 'password=wrong horse battery')")
  done
  echo "${codes[*]}"
}
check_limit() { # label codes...
  local label=$1; shift
  local i=0 c
  for c in "$@"; do
    i=$((i + 1))
    if [ "$i" -le "$AUTH_BURST" ]; then
      [ "$c" != 429 ] && [ "$c" != 403 ] || fail "(c) $label: try $i answered $c: $*"
    else
      [ "$c" = 429 ] || fail "(c) $label: try $i answered $c, want 429 after $AUTH_BURST: $*"
    fi
  done
}
alternate() { if [ $(($1 % 2)) = 1 ]; then echo "$A"; else echo "$B"; fi; }
through_nginx() { echo "$N"; }
before=$(wc -l <"$work/nginx/access.log")
direct=$(logins direct alternate 203.0.113.50)
check_limit "alternating A/B as one client" $direct
proxied=$(logins nginx through_nginx "")
check_limit "through nginx, each try with another forged X-Forwarded-For" $proxied
upstreams=$(tail -n +$((before + 1)) "$work/nginx/access.log" | awk '$1 == "POST" && $2 == "/user/login" {print $4}' | sort -u | tr '\n' ' ')
[ "$(wc -w <<<"$upstreams")" = 2 ] || fail "(c) nginx sent the log-ins to $upstreams only"
say "ok  (c) log-in limit ($AUTH_BURST tries) held across instances:"
say "        alternating A/B directly, one client:       $direct"
say "        through nginx (to $upstreams), forged XFF: $proxied"

# (d) One instance dies; nginx serves through the other.
kill -TERM "$pid_a"
wait "$pid_a" 2>/dev/null || true
codes=()
for _ in 1 2 3 4 5 6; do codes+=("$(status "$work/after.jar" "$N/")"); done
for c in "${codes[@]}"; do [ "$c" = 200 ] || fail "(d) after A stopped, nginx answered: ${codes[*]}"; done
grep -q 'data-testid="uc-status"' <<<"$(page "$jar" "$N/userCenter")" || fail "(d) Ada's session does not open /userCenter through B"
curl -fsS -o /dev/null --max-time 2 "$A/healthz" 2>/dev/null && fail "(d) A still answers"
say "ok  (d) A stopped (SIGTERM); nginx answered ${codes[*]} and Ada's session still opens /userCenter (served by B)"
say "all shown in $SECONDS s"
