# Longcraft's build and test entry points. `make test` is what CI runs
# (.ci/run) and what the README tells a new contributor to run.

GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test deps fmt vet race wasm bench build clean

## test: everything CI checks: formatting, vet, race-enabled tests, the
## 1,000-seed certification test, wasm build and tests.
test: deps fmt vet race certify wasm

## deps: install what the tests need on a fresh Debian machine (gcc for -race,
## Node for wasm, NumPy and msgpack to check datasets and traces from Python).
deps:
	@missing=""; \
	command -v gcc  >/dev/null 2>&1 || missing="$$missing gcc libc6-dev"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	/usr/bin/python3 -c "import numpy" >/dev/null 2>&1 || missing="$$missing python3-numpy"; \
	/usr/bin/python3 -c "import msgpack" >/dev/null 2>&1 || missing="$$missing python3-msgpack"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

## race: every test under the race detector (-short trims the certification
## test to 50 seeds a tier; the full one runs in "certify").
race:
	CGO_ENABLED=1 $(GO) test -race -short -timeout 30m ./...

## certify: generate and certify the obtain tasks of 1,000 seeds per tier.
certify:
	$(GO) test ./bench/run -run '^TestCertification$$' -count=1 -timeout 60m -v

## wasm: everything builds for the browser; the packages that must behave
## identically there (world, frames, traces, tasks, suites) pass their tests
## under Node.
wasm:
	GOOS=js GOARCH=wasm $(GO) build ./...
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test -short ./sim/... ./render/... ./assets/... \
		./bench/trace/... ./bench/task/... ./bench/suite/... ./bench/dataset/...

## bench: the simulation benchmarks (compare runs with benchstat).
bench:
	$(GO) test ./sim ./render -run '^$$' -bench . -benchmem -count 5

build:
	$(GO) build -o longcraft ./cmd/longcraft

clean:
	rm -f longcraft
