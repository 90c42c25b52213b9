# Selfmap: `make run` serves a fresh clone on :8080; `make test` runs every test.
GO      ?= go
BIN     := bin/selfmap
ISLANDS := $(wildcard islands/*.ts islands/*.tsx islands/*.mjs islands/shared/*.tsx)

.PHONY: run build test fuzz generate islands templ bench soak load lighthouse two-instances clean

## run: build everything, migrate, load the demo data into an empty database, serve on :8080 (ADDR)
run:
	@echo "make run: building $(BIN): front-end packages, views, then Go (the first build downloads and compiles the dependencies: a minute or two)..."
	@$(MAKE) --no-print-directory build
	@echo "make run: migrating the database; seeding the demo data if it is empty..."
	$(BIN) seed --if-empty
	@echo "make run: starting the server (ADDR, default :8080); it prints its address once it listens, Ctrl-C stops it"
	$(BIN) serve

## build: leave the binary at bin/selfmap
build: generate
	$(GO) build -o $(BIN) ./cmd/selfmap

## test: every test (PostgreSQL too when TEST_DATABASE_URL is set; the browser test needs chromium).
## Quiet when all pass: go test prints one line per package, npm test one line; failures in full.
## STEP (empty here) runs each step through a wrapper: CI sets STEP=".ci/run --step", which names and
## times each step, keeps its output unless it fails, and counts the tests.
STEP ?=
test: generate
	$(STEP) $(GO) vet ./...
	$(STEP) npm run --silent typecheck
	$(STEP) npm test --silent
	$(STEP) $(GO) test -count=1 -timeout 30m ./...

## fuzz: every parser of outside input (answers, money, webhook deliveries and signature headers, Stripe
## events, card forms, contact forms, account and profile forms, avatar pictures, order numbers, promo
## codes and SKU ids, e-mail addresses, Accept-Language, query parameters, site tracking settings),
## each for FUZZTIME
FUZZTIME ?= 20s
FUZZ_TARGETS := \
	./internal/exam/:FuzzParseSubmission \
	./internal/money/:FuzzFormat \
	./internal/payment/:FuzzWebhookDelivery \
	./internal/payment/:FuzzCardCheck \
	./internal/support/:FuzzCheck \
	./internal/validate/:FuzzEmail \
	./internal/geo/:FuzzFromAcceptLanguage \
	./internal/tracking/:FuzzParse \
	./handlers/:FuzzQueryParameters \
	./internal/account/:FuzzProfileForm \
	./internal/account/:FuzzRegisterFields \
	./internal/account/:FuzzProcessAvatar \
	./internal/payment/:FuzzSignatureHeader \
	./internal/payment/:FuzzStripeEvent \
	./internal/store/:FuzzRequestKeys
fuzz: generate
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		GO=$(GO) scripts/fuzz-one.sh $$pkg $$name $(FUZZTIME) || exit 1; \
	done

## generate: everything the Go build embeds (island bundles, views)
generate: islands templ

## islands: bundle the React islands with esbuild into static/dist
islands: static/dist/manifest.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

static/dist/manifest.json: node_modules/.package-lock.json $(ISLANDS)
	npm run --silent build

## templ: generate the Go code of the views
templ:
	$(GO) tool templ generate -path views

## bench: Go benchmarks, landing vs a bare handler (wrk), bytes per page, the visitor mix on SQLite and
## PostgreSQL with peak memory, checkout at 100 buyers, Lighthouse (about 7 minutes; docs/performance.md)
bench: build
	scripts/bench.sh

## soak: SOAK_SECONDS (600) of the visitor mix on PostgreSQL with kills mid-checkout, a database restart and
## webhook replays, then the invariants checked from the database; fails when one breaks (docs/reliability.md)
soak: build
	scripts/soak.sh

## load: request rate of the home page and a bare handler, on loopback (needs wrk)
load: build
	scripts/load.sh

## lighthouse: Lighthouse mobile scores of /, a landing page and the types page (needs chromium; npm fetches lighthouse)
lighthouse: build
	scripts/lighthouse.sh

## two-instances: two instances behind nginx on one PostgreSQL: sessions, jobs and rate limits shared (needs nginx, PostgreSQL)
two-instances: build
	scripts/two-instances.sh

clean:
	rm -rf bin static/dist node_modules
