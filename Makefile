# planner — build, test and experiment targets.
#
# Every target that needs the C solver and learning libraries (libsvm)
# depends on `deps-build`, which installs what is missing of BUILD_PKGS
# (Debian packages) and does nothing when all is there; `test` depends on
# `deps`, which adds TEST_PKGS: Chromium for the test of the service's
# operator page, which loads it headless, and Slurm for the loopback
# Slurm tests. `build`, `run` and `lint` install neither.

GO          ?= go
BIN         := bin/planner
BUILD_PKGS  := coinor-libcbc-dev coinor-libclp-dev liblpsolve55-dev libsvm-dev pkg-config gcc g++
TEST_PKGS   := chromium slurmctld slurmd slurm-client munge
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps deps-build build run test bench experiments traces traces-experiments lint clean

# install-missing installs the Debian packages of $(1) that are not installed.
define install-missing
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps-build:
	$(call install-missing,$(BUILD_PKGS))
	@$(GO) mod download

# The Slurm and munge packages start and enable their daemons when
# installed; a policy-rc.d that refuses every start (Debian's
# invoke-rc.d contract, exit 101) keeps them from starting, and the units
# are disabled after, so no target leaves a daemon running or enabled.
# The Slurm tests start their own on loopback and stop it.
deps: deps-build
	@if [ ! -e /usr/sbin/policy-rc.d ]; then \
	  printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && \
	  $(SUDO) chmod 755 /usr/sbin/policy-rc.d && touch .policy-rc.d.ours; fi
	$(call install-missing,$(TEST_PKGS))
	@if [ -e .policy-rc.d.ours ]; then $(SUDO) rm -f /usr/sbin/policy-rc.d .policy-rc.d.ours; fi
	@if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then \
	  $(SUDO) systemctl disable --now slurmctld slurmd munge >/dev/null 2>&1 || true; fi

build: deps-build
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/planner

# The default experiment: the 3Sigma paper's headline comparison (Google-like
# workload, 256 nodes, 5 hours, load 1.4, all seven schedulers).
run: build
	./$(BIN) version
	./$(BIN) simulate --workload google --nodes 256 --hours 5 --load 1.4 --seed 1

test: deps
	$(GO) vet ./...
	$(GO) test ./...
	CGO_ENABLED=0 $(GO) test ./solver/... ./distributions/... ./utility/...
	CGO_ENABLED=0 $(GO) test -run 'TestBenchDefaultSolvers|TestBenchSolverJSON|TestVersionListsBackends|TestSimulateWithoutCSolvers' ./cmd/planner/

# Go benchmarks, then every backend on the default and validation
# instances, then the wall-clock bound (limit + 50 ms) of every backend on
# large models under a short limit, then the cycle time against the
# backlog at Google scale with its fitted slope (cycle-scale.png).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./$(BIN) bench solver --jobs 100,300 --seeds 1-5 --timeout 1s --best-known solver/instances/best-known-default.json
	./$(BIN) bench solver --jobs 100,300 --seeds 6-10 --timeout 1s --best-known solver/instances/best-known-validation.json
	./$(BIN) bench solver --jobs 1000 --seeds 1-3 --timeout 100ms
	./$(BIN) bench cycle --pending 250,500,1000,2000,4000 --cycles 3 -o $(RESULTS)/cycle-scale

# The long comparisons behind BENCHMARKS.md and the acceptance numbers:
# seeds 1–3 at the default slack and at 20% slack, the solver backends on
# the rack instances and end to end (greedy against clp on the three
# environments), and the slack (20…180%) and solver-time-limit (10 ms…5 s
# on the wall clock) sweeps with their plots and report.md (resumable: an
# interrupted sweep continues where it stopped), and the Google-scale runs
# (SCALABILITY-2000 and -4000: 3sigma under a 1 s limit, and the three
# schedulers at load 1.4).
RESULTS ?= results
experiments: build
	mkdir -p $(RESULTS)
	for s in 1 2 3; do \
	  ./$(BIN) simulate --seed $$s --format json --quiet --out $(RESULTS)/google-seed$$s > $(RESULTS)/google-seed$$s.json; \
	  ./$(BIN) simulate --seed $$s --slack 20 --format json --quiet > $(RESULTS)/google-slack20-seed$$s.json; \
	done
	./$(BIN) bench solver --jobs 100,300 --seeds 1-5 --timeout 1s --reference 60s --format json > $(RESULTS)/solver-bench.json
	./$(BIN) sweep --study slack --workload google --seeds 1-3 --parallel 2 --quiet --format json --out $(RESULTS)/sweep-slack > $(RESULTS)/sweep-slack.json
	./$(BIN) sweep --study solver-timeout --workload google --seeds 1-3 --parallel 1 --quiet --format json --out $(RESULTS)/sweep-solver-timeout > $(RESULTS)/sweep-solver-timeout.json
	for w in google hedgefund mustang; do \
	  ./$(BIN) sweep --vary solver=greedy,clp --workload $$w --schedulers 3sigma,pointrealest --seeds 1-3 --parallel 2 --quiet --format json --out $(RESULTS)/sweep-solver-$$w > $(RESULTS)/sweep-solver-$$w.json; \
	done
	for w in hedgefund mustang; do for s in 1 2 3; do \
	  ./$(BIN) simulate --workload $$w --schedulers 3sigma,pointperfest,pointrealest,prio --seed $$s --format json --quiet > $(RESULTS)/$$w-seed$$s.json; \
	done; done
	for n in 2000 4000; do \
	  for l in 0.95 1.4; do \
	    ./$(BIN) simulate --workload scalability-$$n --load $$l --interval 10s --schedulers 3sigma --parallel 1 --deterministic=false --solver-timeout 1s --quiet --format json --out $(RESULTS)/scale-$$n-$$l > $(RESULTS)/scale-$$n-$$l.json; \
	  done; \
	  for s in 1 2 3; do \
	    ./$(BIN) simulate --workload scalability-$$n --load 1.4 --interval 10s --schedulers 3sigma,pointrealest,prio --seed $$s --parallel 2 --quiet --format json > $(RESULTS)/scale-$$n-1.4-seed$$s.json; \
	  done; \
	done
	$(MAKE) --no-print-directory traces-experiments

# The public traces, copied into traces/ of the checkout (git-ignored) from
# TRACES, a directory that holds them as docs/user-guide.md ("Real traces")
# describes: the three cleaned SWF logs of the Parallel Workloads Archive
# and the Google cluster-data 2011 sample (job_events parts 0-8,
# task_events parts 1-8). Without TRACES, ../shared/traces when it exists;
# without either, traces/ must be complete already. Files already there
# and identical are left alone.
SWF_LOGS    := KTH-SP2-1996-2.1-cln LANL-CM5-1994-4.1-cln LLNL-Thunder-2007-1.1-cln
TRACE_FILES := $(addsuffix .swf.gz,$(SWF_LOGS)) \
  $(foreach i,0 1 2 3 4 5 6 7 8,google-2011/job_events/part-0000$(i)-of-00500.csv.gz) \
  $(foreach i,1 2 3 4 5 6 7 8,google-2011/task_events/part-0000$(i)-of-00500.csv.gz)
TRACES_HELP := download the SWF logs from https://www.cs.huji.ac.il/labs/parallel/workload/ and clusterdata-2011-2 from https://github.com/google/cluster-data (docs/user-guide.md, 'Real traces')
traces:
	@src="$(TRACES)"; \
	if [ -z "$$src" ] && [ -d ../shared/traces ]; then src=../shared/traces; fi; \
	if [ -z "$$src" ]; then \
	  for f in $(TRACE_FILES); do \
	    [ -f "traces/$$f" ] || { echo "traces: no TRACES=DIR given, no ../shared/traces and no traces/$$f; $(TRACES_HELP)" >&2; exit 1; }; \
	  done; \
	  echo "traces: traces/ is complete"; exit 0; \
	fi; \
	[ -d "$$src" ] || { echo "traces: TRACES=$$src is not a directory; $(TRACES_HELP)" >&2; exit 1; }; \
	for f in $(TRACE_FILES); do \
	  [ -f "$$src/$$f" ] || { echo "traces: $$src/$$f is missing; $(TRACES_HELP)" >&2; exit 1; }; \
	done; \
	n=0; \
	for f in $(TRACE_FILES) README.md; do \
	  [ -f "$$src/$$f" ] || continue; \
	  if ! cmp -s "$$src/$$f" "traces/$$f"; then \
	    mkdir -p "$$(dirname "traces/$$f")" && rm -f "traces/$$f" && cp "$$src/$$f" "traces/$$f" && chmod u+w "traces/$$f" || exit 1; \
	    n=$$((n+1)); \
	  fi; \
	done; \
	echo "traces: $$n files copied from $$src into traces/"

# The real traces: each SWF log imported three times (class draws seeded
# 1–3; a 24 h window from the trace's middle filled to load 1.4 on 256 nodes
# with the consecutive jobs that carry it, at least 200 of them, their
# arrivals compressed into the window) and played through the planners
# (their horizon and decision timing derived from each log's history),
# prio and the HPC backfilling baselines; the Google 2011 sample as
# recorded (5 h window, its own arrivals). The traces are read from
# traces/ (make traces).
traces-experiments: build traces
	mkdir -p $(RESULTS)/traces
	for t in $(SWF_LOGS); do \
	  for s in 1 2 3; do \
	    ./$(BIN) workload import --format swf traces/$$t.swf.gz --hours 24 --load 1.4 --seed $$s -q -o $(RESULTS)/traces/$$t-s$$s.jsonl && \
	    ./$(BIN) simulate --workload $(RESULTS)/traces/$$t-s$$s.jsonl --schedulers 3sigma,pointrealest,prio,backfill,backfill-pred --seed $$s --format json --quiet > $(RESULTS)/traces/$$t-s$$s.json || exit 1; \
	  done; \
	done
	./$(BIN) workload import --format google2011 traces/google-2011 -q -o $(RESULTS)/traces/google-2011.jsonl
	./$(BIN) simulate --workload $(RESULTS)/traces/google-2011.jsonl --schedulers 3sigma,pointrealest,prio,backfill,backfill-pred --format json --quiet > $(RESULTS)/traces/google-2011.json

lint: deps-build
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

clean:
	rm -rf bin
