# Longcraft's build and test entry points. `make test` is what the README
# tells a new contributor to run (under 5 minutes on a quiet 2-core machine);
# CI (.ci/run) runs it and then `make test-long`, the exhaustive variants.

GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run-long models-test python python-test ppo-long deps-python deps-ppo bench-python test test-long test-slurm test-k8s certify-long fidelity-long deps fmt vet race certify fidelity-test tasks-test fidelity benchmarks-once wasm-test wasm browser demo bench bench-compare build clean

## test: every check, sized to run in minutes: formatting, vet,
## race-enabled tests, the certification test on 200 seeds a tier, the
## classic ruleset's fidelity to Crafter (16,000 episodes), the check that
## no task is a free win (1,000 seeds a cell), the wasm build and tests, and
## the end-to-end test of the browser demo in headless Chromium.
test: deps fmt vet race certify fidelity-test tasks-test models-test python-test benchmarks-once wasm-test browser

## test-long: the exhaustive variants, which CI also runs: certification on
## 1,000 seeds a tier, fidelity over 100,000 episodes, bench/run's tests at
## full size, a real one-node Slurm
## cluster running docs/scale-out.md's array script, and the Kubernetes
## manifest checked against the Job API and its shards merged, and a PPO
## policy that learns from the Python package (ppo-long).
test-long: certify-long fidelity-long run-long test-slurm test-k8s ppo-long

## run-long: bench/run's tests at full size, without the race detector:
## the tests that make test's race step shrinks under -short (the
## adversarial agents on 30 tasks, the built-in agents' probe skill on
## 18, every embedded lock's tasks, the summaries recomputed from the
## standard suite's lines). A couple of minutes on a 2-core machine.
run-long:
	$(GO) test ./bench/run -count=1 -timeout 60m -skip '^TestCertification$$'

## ppo-long: python/examples/ppo.py trains PPO (Debian's python3-torch) on
## the obtain-easy tasks and on the open-ended classic game, and fails
## unless its held-out success beats random's by 0.2 and 3 standard
## errors, and its Crafter score beats 1.6% (Crafter's random agent) and
## our random agent's; the learning curves go to $(PPO_OUT). Under 10
## minutes on a 2-core machine (timeout: 10 minutes).
PPO_OUT ?= $(or $(TMPDIR),/tmp)/longcraft-ppo
ppo-long: python deps-ppo
	mkdir -p $(PPO_OUT)
	timeout 600 $(VENV)/bin/python python/examples/ppo.py check --json $(PPO_OUT)/figures.json --plot $(PPO_OUT)/curve.png

## test-slurm: installs slurm-wlm when missing (apt-get), starts munged,
## slurmctld and slurmd on a private state directory, submits
## docs/scale-out.md's job-array script unchanged for a 3-shard standard
## run (sbatch --wait), merges, checks the merge is byte-identical to an
## unsharded run, and stops the daemons by their pid files. Needs root (or
## sudo). About a minute and a half on a 2-core machine.
test-slurm:
	$(SUDO) env "PATH=$$PATH" .ci/slurm-test.sh

## test-k8s: docs/scale-out.md's Indexed Job decoded strictly into the
## Kubernetes Job API's types (its own module, internal/k8sjob, so those
## types stay out of Longcraft's dependencies), then its container command
## run for every completion index and the shards merged and compared with
## an unsharded run.
test-k8s:
	cd internal/k8sjob && $(GO) vet ./... && $(GO) test -count=1 -timeout 20m ./...

## deps: install what the tests need on a fresh Debian machine (deps-python's
## gcc, for -race too, and NumPy, also to check datasets from Python; Node for
## wasm, msgpack to check traces from Python, Chromium for the browser test).
deps: deps-python
	@missing=""; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	/usr/bin/python3 -c "import msgpack" >/dev/null 2>&1 || missing="$$missing python3-msgpack"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

## deps-python: what `make python` needs, from Debian: gcc (cgo), NumPy,
## venv and setuptools (the package's build, offline).
deps-python:
	@missing=""; \
	command -v gcc  >/dev/null 2>&1 || missing="$$missing gcc libc6-dev"; \
	/usr/bin/python3 -c "import numpy" >/dev/null 2>&1 || missing="$$missing python3-numpy"; \
	/usr/bin/python3 -c "import ensurepip, setuptools" >/dev/null 2>&1 || missing="$$missing python3-venv python3-setuptools"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

## deps-ppo: what python/examples/ppo.py needs beyond the package, from
## Debian: PyTorch and matplotlib (its learning-curve picture).
deps-ppo:
	@missing=""; \
	/usr/bin/python3 -c "import torch" >/dev/null 2>&1 || missing="$$missing python3-torch"; \
	/usr/bin/python3 -c "import matplotlib" >/dev/null 2>&1 || missing="$$missing python3-matplotlib"; \
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
	$(GO) vet -tags browser ./wasm/web

## race: every test under the race detector, -short (smaller samples),
## except in NORACE's packages. The certification test is left to
## "certify": it is the planner on one goroutine per task, which the race
## detector slows tenfold for nothing.
##
## NORACE: packages whose tests start no goroutine, nor do the packages
## they use: the race detector can find no race there and made them about
## five times slower (63 s of the step's CPU time on a 2-core machine), so
## they run without it, and without -short, their full samples. They keep
## the unsafe-pointer checks that -race turns on (-d=checkptr).
## TestNoRacePackagesAreSingleThreaded (internal/arch) fails when one of
## them, or a package it imports, gains a go statement, t.Parallel, a
## WaitGroup.Go, a timer, finalizer or polling-assertion callback, a
## command's copying goroutine, net/http or os/signal: then it belongs
## under the race detector again.
NORACE := ./sim ./render ./bench/trace

## bench/run goes first: its tests are half of the step's CPU time, and
## started last it ran on alone after the others were done.
race:
	CGO_ENABLED=1 $(GO) test -race -short -timeout 30m -skip '^TestCertification$$' \
		./bench/run $$($(GO) list ./... | grep -vxF "$$($(GO) list ./bench/run $(NORACE))")
	$(GO) test -gcflags='github.com/longcraft/longcraft/...=-d=checkptr' -timeout 30m $(NORACE)

## certify: generate and certify the obtain tasks of 200 seeds per tier.
certify:
	$(GO) test ./bench/run -run '^TestCertification$$' -count=1 -timeout 60m -v

## certify-long: the same on 1,000 seeds per tier.
certify-long:
	$(GO) test ./bench/run -run '^TestCertification$$' -count=1 -timeout 90m -v -args -certify-seeds 1000

## fidelity-test: 16,000 random episodes against Crafter's reference
## statistics, each within ±10% (bench/fidelity; a few seconds, so not under
## -race, where "race" skips it).
fidelity-test:
	$(GO) test ./bench/fidelity -run '^TestFidelity$$' -count=1 -v

## python: the Python package installed the one way docs/python.md gives
## users, `pip install -e ./python`, into $(VENV) (made with Debian's
## /usr/bin/python3, seeing its NumPy: --system-site-packages): setup.py
## builds python/longcraft/liblongcraft.so (cgo, -buildmode=c-shared;
## needs gcc and nothing from the network). Then `$(VENV)/bin/python`
## imports longcraft from anywhere, and the examples and tests run from
## the checkout as they are.
VENV ?= .venv
python: deps-python
	test -x $(VENV)/bin/python || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	GO=$(GO) $(VENV)/bin/pip install --no-index --quiet -e ./python

## python-test: the Python package's tests with Debian's python3-numpy:
## shapes and dtypes, determinism across threads and against the Go loop,
## NEXT_STEP autoreset, clone/restore, errors, a smoke loop; then the
## examples, briefly.
python-test: python
	$(VENV)/bin/python -m unittest discover -s python/tests -v
	$(VENV)/bin/python python/examples/dataset.py $$(mktemp -d) 256
	$(VENV)/bin/python python/examples/world_model_probe.py > /dev/null

## bench-python: env-steps/s from Python at 1, 64, 512 and 4,096 worlds
## (symbolic), and RGB 64×64 at 512, beside the Go batch's own benchmark
## (longcraft bench prints the same figures in its table).
bench-python: python
	/usr/bin/python3 python/examples/random_agent.py --bench --count 1 --seconds 2
	$(GO) test ./bench/vec -run XXX -bench BenchmarkStep -benchtime 2s

## models-test: the balrog-crafter protocol against the fake model server
## (internal/fakemodel) at the scale of a real run: 100 episodes, thousands
## of calls, invalid replies and server errors ("race" plays 20).
models-test:
	$(GO) test ./bench/run -run '^TestBalrogProtocolAtScale$$' -count=1 -v

## tasks-test: every family × tier × 1,000 eval seeds: no goal holds at
## step 0, a noop and an always-do agent succeed only at surviving, and no
## baseline (noop, do, random) wins a cell detectably more often than 40%
## (easy) or 2% (medium and up); prints each baseline's success per cell
## ("race" runs it on 30 seeds).
tasks-test:
	$(GO) test ./bench/task -run '^TestNoFreeTasks$$' -count=1 -v

## fidelity-long: the fidelity statistics over 100,000 episodes (seeds
## 0–99,999), each within ±10% of Crafter's.
fidelity-long:
	$(GO) run ./cmd/longcraft fidelity --episodes 100000

## fidelity: the same statistics over 20,000 episodes, printed beside
## Crafter's with sampling intervals (exit 1 if any is outside ±10%).
fidelity:
	$(GO) run ./cmd/longcraft fidelity --episodes 20000

## wasm-test: everything builds for the browser; the packages that must
## behave identically there (world, frames, traces, tasks, suites, the text
## an agent reads, the demo's session) pass their tests under Node.
wasm-test:
	GOOS=js GOARCH=wasm $(GO) build ./...
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test -short ./sim/... ./render/... ./assets/... \
		./bench/trace/... ./bench/task/... ./bench/suite/... ./bench/dataset/... ./bench/protocol/text/... ./wasm/session/...

## wasm: the browser app in build/web (longcraft.wasm, wasm_exec.js); the
## pages are embedded in the longcraft binary, which serves them (make demo).
wasm:
	mkdir -p build/web
	GOOS=js GOARCH=wasm CGO_ENABLED=0 $(GO) build -trimpath -o build/web/longcraft.wasm ./wasm
	cp "$(WASM_EXEC)/wasm_exec.js" build/web/
	@ls -l build/web/longcraft.wasm | awk '{print "longcraft.wasm:", $$5, "bytes"}'
	@gzip -9c build/web/longcraft.wasm | wc -c | awk '{print "gzipped:", $$1, "bytes"}'

## browser: play, watch, replay and record in headless Chromium, each checked
## against the native simulation's state hashes (screenshots: build/artifacts).
browser:
	$(GO) test -tags browser -run '^TestBrowser$$' -count=1 -timeout 10m -v ./wasm/web

## demo: build the app and serve the demo on http://127.0.0.1:8080.
demo: wasm
	$(GO) run ./cmd/longcraft demo --app build/web

## benchmarks-once: every benchmark runs once, so none rots (no timing is
## checked: CI machines differ). -short skips the two that are measurements
## of minutes (BenchmarkLookupAttackStandard, BenchmarkCertifySaltedStandard).
benchmarks-once:
	$(GO) test -short -run '^$$' -bench . -benchtime 1x ./...

## bench: every figure we claim, 5 runs each, beside its target
## (bench/README.md); the report goes to build/bench.json.
bench:
	mkdir -p build
	$(GO) run ./cmd/longcraft bench --json build/bench.json

## bench-compare: the same, compared with the saved baseline.
bench-compare:
	$(GO) run ./cmd/longcraft bench --baseline bench/baseline.json

build:
	$(GO) build -buildvcs=true -o longcraft ./cmd/longcraft

clean:
	rm -rf longcraft build
