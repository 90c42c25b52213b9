#!/usr/bin/env bash
# Installs stripe-mock (Stripe's stateless API mock, used by the Stripe
# provider's tests) into a GOBIN if it is not there yet, and prints its path.
#   scripts/stripe-mock.sh [GOBIN]      # default: $(go env GOBIN), else $(go env GOPATH)/bin
#   STRIPE_MOCK=$(scripts/stripe-mock.sh /tmp/bin) go test ./internal/payment/ -run Stripe
# Set STRIPE_MOCK_VERSION to pin a version (default: latest).
set -euo pipefail

gobin=${1:-$(go env GOBIN)}
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
mkdir -p "$gobin"
gobin=$(cd "$gobin" && pwd)   # go install wants an absolute GOBIN
bin="$gobin/stripe-mock"

if [ ! -x "$bin" ]; then
  # stdout carries only the path; go's progress goes to stderr.
  GOBIN="$gobin" go install "github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION:-latest}" >&2
fi
echo "$bin"
