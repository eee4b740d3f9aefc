# planner — build, test and experiment targets.
#
# Every target that needs the C solver libraries depends on `deps`, which
# installs what is missing (Debian packages) and does nothing when all is there.

GO          ?= go
BIN         := bin/planner
APT_PKGS    := coinor-libcbc-dev coinor-libclp-dev liblpsolve55-dev pkg-config gcc g++
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
GOBIN       := $(shell $(GO) env GOPATH)/bin

.PHONY: deps build run test bench experiments lint clean

deps:
	@missing=""; \
	for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -o $(BIN) ./cmd/planner

# The default experiment: the 3Sigma paper's headline comparison (Google-like
# workload, 256 nodes, 5 hours, load 1.4, all seven schedulers).
run: build
	./$(BIN) version
	./$(BIN) simulate --workload google --nodes 256 --hours 5 --load 1.4 --seed 1

test: deps
	$(GO) vet ./...
	$(GO) test ./...
	CGO_ENABLED=0 $(GO) test ./solver/... ./distributions/... ./utility/...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./$(BIN) bench solver --jobs 100,300 --seeds 1-5 --timeout 1s

# The long comparisons behind BENCHMARKS.md and the acceptance numbers:
# seeds 1–3 at the default slack and at 20% slack, the solver goals, and
# the slack (20…180%) and solver-time-limit (10 ms…5 s) sweeps with their
# plots and report.md (resumable: an interrupted sweep continues where it
# stopped).
RESULTS ?= results
experiments: build
	mkdir -p $(RESULTS)
	for s in 1 2 3; do \
	  ./$(BIN) simulate --seed $$s --format json --quiet --out $(RESULTS)/google-seed$$s > $(RESULTS)/google-seed$$s.json; \
	  ./$(BIN) simulate --seed $$s --slack 20 --format json --quiet > $(RESULTS)/google-slack20-seed$$s.json; \
	done
	./$(BIN) bench solver --jobs 100,300 --seeds 1-5 --timeout 1s --reference 60s --format json > $(RESULTS)/solver-bench.json
	./$(BIN) sweep --study slack --workload google --seeds 1-3 --parallel 2 --quiet --format json --out $(RESULTS)/sweep-slack > $(RESULTS)/sweep-slack.json
	./$(BIN) sweep --study solver-timeout --workload google --seeds 1-3 --parallel 2 --quiet --format json --out $(RESULTS)/sweep-solver-timeout > $(RESULTS)/sweep-solver-timeout.json

lint: deps
	$(GO) vet ./...
	@[ -x $(GOBIN)/staticcheck ] || $(GO) install $(STATICCHECK)
	$(GOBIN)/staticcheck ./...

clean:
	rm -rf bin
