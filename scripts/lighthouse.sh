#!/usr/bin/env bash
# Lighthouse (mobile, the default) on the key pages, three runs each, with
# Debian's Chromium, against the release binary on loopback with the demo
# data. Installs the pinned lighthouse into a throwaway folder.
#   scripts/lighthouse.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install chromium)" >&2; exit 1; }
[ -x bin/selfmap ] || make build
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$tmp" && npm install --no-audit --no-fund --loglevel=error lighthouse@13.5.0 >/dev/null)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DATA_DIR="$tmp" bin/selfmap seed >/dev/null
DATA_DIR="$tmp" ADDR="127.0.0.1:$port" BASE_URL="http://127.0.0.1:$port" LOG_LEVEL=error bin/selfmap serve >/dev/null 2>&1 &
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
echo "lighthouse 13.5.0, mobile, $(chromium --version), $(date -u +%F)"
for page in / /landing/home/BMBTI-1807 /types/BMBTI-1807; do
  for i in $(seq "$runs"); do
    CHROME_PATH=$(command -v chromium) "$tmp/node_modules/.bin/lighthouse" "http://127.0.0.1:$port$page" --quiet --output=json \
      --output-path="$tmp/r.json" --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --no-first-run --user-data-dir=$tmp/ud$i" >/dev/null 2>&1
    python3 - "$page" "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[2])); c = d["categories"]; a = d["audits"]
print(f'{sys.argv[1]:28} perf {round(c["performance"]["score"]*100):3}  a11y {round(c["accessibility"]["score"]*100):3}  '
      f'best {round(c["best-practices"]["score"]*100):3}  seo {round(c["seo"]["score"]*100):3}  '
      f'LCP {a["largest-contentful-paint"]["displayValue"]}  TBT {a["total-blocking-time"]["displayValue"]}  CLS {a["cumulative-layout-shift"]["displayValue"]}')
PY
  done
done
