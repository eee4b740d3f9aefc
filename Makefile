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

.PHONY: deps build run test bench lint clean

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

# The default experiment: every solver backend on 3Sigma-shaped instances.
run: build
	./$(BIN) version
	./$(BIN) bench solver --jobs 100 --seeds 1-3 --timeout 1s

test: deps
	$(GO) vet ./...
	$(GO) test ./...
	CGO_ENABLED=0 $(GO) test ./solver/... ./distributions/... ./utility/...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./$(BIN) bench solver --jobs 100,300 --seeds 1-5 --timeout 1s

lint: deps
	$(GO) vet ./...
	@[ -x $(GOBIN)/staticcheck ] || $(GO) install $(STATICCHECK)
	$(GOBIN)/staticcheck ./...

clean:
	rm -rf bin
