#!/usr/bin/env bash
# Fuzzes one target for a bounded time: scripts/fuzz-one.sh PKG NAME FUZZTIME.
# Go 1.26's fuzz coordinator can fail a run with a bare "context deadline
# exceeded" when -fuzztime ends while a worker is mid-call, with no failing
# input found (go.dev/issue/75804, fixed in Go 1.27). Such a run is tried
# once more; any other failure, and any run that wrote a failing input,
# fails at once.
set -uo pipefail
pkg=$1; name=$2; fuzztime=$3
go=${GO:-go}
for try in 1 2; do
  out=$(mktemp)
  "$go" test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -fuzzminimizetime 3s 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then rm -f "$out"; exit 0; fi
  if [ "$try" -eq 1 ] && grep -q '^    context deadline exceeded$' "$out" &&
     ! grep -q 'Failing input written to\|panic:\|_test.go:[0-9]*:' "$out"; then
    echo "fuzz $name: the fuzz coordinator's deadline race (go.dev/issue/75804), no failing input; running it again"
    rm -f "$out"; continue
  fi
  rm -f "$out"; exit "$rc"
done
