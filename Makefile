# bqgen — make targets. Go >= 1.24 on PATH is the only requirement.
GO ?= go


.PHONY: all build generate example test bench lint fuzz node-tools

all: lint test

build:
	$(GO) build -o bin/bqgen ./cmd/bqgen

# Regenerate the committed example package from examples/registry.yaml.
generate:
	$(GO) run ./cmd/bqgen generate -r examples/registry.yaml -o examples/events

# The main job: generate from the example registry, then run the example service on it.
example: generate
	$(GO) run ./examples/orders-service

# The pinned Node.js tools the tests run (ajv, @asyncapi/parser, quicktype, tsc; tools/node/package-lock.json).
node-tools:
	cd tools/node && npm ci --no-audit --no-fund

# The test command CI runs (.ci/run). What each flag saves is in docs/performance.md,
# "The test suite":
#   -vet=off: go vet ./... has just run every analyzer go test's vet step runs.
#   -ldflags='-s -w': the test binaries are linked without a symbol table and DWARF
#     (a third less link time; stack traces keep their function names and lines).
# Not -trimpath: `go tool bqgen` (internal/cli's TestGoTool) ignores it and builds bqgen
# and the standard library as compiled here, which costs it nothing; with -trimpath
# here it compiled them all again (80 s of CPU), more than the tests' -trimpath
# modules (internal/gomodtest) save by sharing this command's standard library.
test: node-tools
	$(GO) vet ./...
	$(GO) test -count=1 -vet=off -ldflags='-s -w' ./...

# Every benchmark (docs/performance.md): generator (internal/synth: load+check, Go,
# JSON Schema for 100/1,000/10,000 URNs), go build of the generated package
# (bench BenchmarkGoBuild: the generated tree; set BQGEN_BENCH_BASELINE to an older
# bqgen binary to build its output in the same run), the CLI end to end (bench
# BenchmarkCLI, each command also run by a build of 6a70da9 taken from the git history,
# with ratios) and generated code vs map[string]any + encoding/json (examples/events).
# About 5-10 minutes on 2 cores before BenchmarkCLI ran the baseline too.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...

# bqgen vs peer generators (quicktype, go-jsonschema) on the same synthetic registry:
# generation and go build of the generated Go (docs/performance.md, "Peers"). The peers
# are installed into a temporary folder; needs npm and network. Not part of test or bench.
PEERS_N ?= 1000
.PHONY: peers
peers:
	GO=$(GO) bash bench/peers.sh $(PEERS_N)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./cmd/bqgen generate -r examples/registry.yaml -o examples/events --check
