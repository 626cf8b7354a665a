# quakes: build, test, demo and install. Every target that compiles first makes sure the two C
# libraries' development packages are installed (with apt-get, through sudo when not root).

PREFIX ?= /usr/local
SWIFT ?= swift
PACKAGES = libcurl4-openssl-dev libsqlite3-dev
# Release binaries carry the Swift runtime, so an installed quakes needs only libcurl and SQLite.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -warnings-as-errors -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
DEMO_DB = .build/demo/quakes.sqlite

.PHONY: all deps build demo test test-tsan bench bench-quick install uninstall clean

all: build

deps:
	@missing=""; \
	for package in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		echo "Installing$$missing"; \
		$$sudo apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

demo: build
	@rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	set -x; \
	"$$bin/quakes" fetch --db $(DEMO_DB) "file://$(CURDIR)/Fixtures/all_week-2021-07-20T1423Z.geojson"; \
	"$$bin/quakes" fetch --db $(DEMO_DB) "file://$(CURDIR)/Fixtures/all_week-2021-07-22T2039Z.geojson"; \
	"$$bin/quakes" list --db $(DEMO_DB) --sort magnitude --section day --min-magnitude 5

# The suites, then the quick benchmark run, which must finish cleanly (its timings are not checked).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory bench-quick

test-tsan: deps
	$(SWIFT) test --sanitize=thread

# Benchmarks (see BENCHMARKS.md): the Python baseline needs python3 and the query baselines the
# sqlite3 tool, which is installed with apt-get when missing; a baseline that cannot run is left out.
bench: deps
	@command -v sqlite3 >/dev/null || { [ "$$(id -u)" -eq 0 ] && apt-get install -y -qq sqlite3 >/dev/null; } || true
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-measure
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	"$$bin/quakes-bench" run --quakes "$$bin/quakes" --work .build/bench --output BENCHMARKS.md \
		--commit "$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# Every case of `make bench` once, on 20,000 features: checks that the suite runs, in under a minute.
bench-quick: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-measure
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	"$$bin/quakes-bench" run --quick --quakes "$$bin/quakes" --work .build/bench-quick \
		--output .build/bench-quick/BENCHMARKS.md >/dev/null && echo "bench-quick: every case ran; see .build/bench-quick/BENCHMARKS.md"

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/quakes" "$(DESTDIR)$(PREFIX)/bin/quakes"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/quakes"

clean:
	rm -rf .build
