# quakes: build, test, demo and install. Every target that compiles first makes sure the C
# libraries' development packages are installed (with apt-get, through sudo when not root), and
# every target that tests or measures, the packages the tests need too.

PREFIX ?= /usr/local
SWIFT ?= swift
# libcurl, SQLite, zlib, libpq and cairo headers: what building needs (`make deps`); DejaVu Sans,
# the font cairo sets the text of PNG and PDF pictures in; and the time zone database, which quakes
# reads its display zone from (ZoneRules.swift).
PACKAGES = libcurl4-openssl-dev libsqlite3-dev zlib1g-dev libpq-dev libcairo2-dev fonts-dejavu-core tzdata
# And what the tests and benchmarks need (`make test-deps`): openssl for the tests' https server,
# the PostgreSQL server that scripts/with-postgres starts for the tests of the PostgreSQL layer,
# and the readers the picture tests check quakes' files with: Chromium (headless) for the HTML and
# SVG, poppler's pdftoppm for the PDF. A host that only builds or installs quakes gets none of them.
TEST_PACKAGES = $(PACKAGES) openssl postgresql chromium poppler-utils strace
# Release binaries carry the Swift runtime, so an installed quakes needs only the C libraries its
# commands open (libcurl, SQLite, zlib, libpq, cairo and the DejaVu fonts, each when first used) and
# tzdata, with its data files (make install).
# Start-up (see docs/design.md): libstdc++, which the static Swift runtime needs, linked in rather
# than resolved symbol by symbol at every start, and libgcc's unwinder with it (-static-libgcc: one
# library fewer to load, whose start-up asks the processor for its features, and one fewer in which
# the loader looks up every symbol of libsqlite3), and no run path of the binary's own folder, which
# would send the dynamic linker looking for every library there first. The executable stays
# position-independent: -no-pie would leave the loader less to relocate, at the price of a fixed
# address for all of quakes' code, a tool that parses what it downloads; Debian builds every
# package PIE for that reason.
# Each function in a section of its own, so that the linker can place the functions the quick
# commands run side by side (scripts/startup.order, written by `make startup-order`): the kernel maps
# code 64 KB around each first touch, so code run together should lie together (most of the
# standard library is one section, which can only move whole). SwiftPM does not know the list is an
# input of the link: a checkout that changes only the list links again only when a source changes
# too (`make startup-order` removes the executable for that reason).
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -warnings-as-errors -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker -L$(STATIC_CXX) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/scripts/startup.order -Xlinker --no-warn-symbol-ordering
# A folder holding only libstdc++'s static archive: the static Swift runtime links with -lstdc++, and
# the linker takes the first libstdc++ it finds in its search path, this folder's before the system's.
STATIC_CXX = $(CURDIR)/.build/static-libstdc++
DEMO_DB = .build/demo/quakes.sqlite

.PHONY: all deps test-deps static-cxx build demo pictures test check lint format test-long test-tsan test-asan fuzz reliability bench bench-quick geodata startup-order install uninstall clean

all: build

# Installs what is missing of the packages $(1), with apt-get (through sudo when not root).
define install-packages
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		echo "Installing$$missing"; \
		$$sudo apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call install-packages,$(PACKAGES))

test-deps:
	$(call install-packages,$(TEST_PACKAGES))

# The toolchain's clang finds the archive (Debian's libstdc++-12-dev, which Swift itself needs); a
# machine without it links libstdc++ dynamically instead.
static-cxx:
	@mkdir -p $(STATIC_CXX) && archive="$$(clang -print-file-name=libstdc++.a)" \
		&& if [ -f "$$archive" ]; then ln -sf "$$archive" $(STATIC_CXX)/libstdc++.a; else rm -f $(STATIC_CXX)/libstdc++.a; fi

build: deps static-cxx
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes

demo: build
	@rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm $(DEMO_DB).lock
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	set -x; \
	"$$bin/quakes" fetch --db $(DEMO_DB) Fixtures/all_week-2021-07-20T1423Z.geojson; \
	"$$bin/quakes" fetch --db $(DEMO_DB) Fixtures/all_week-2021-07-22T2039Z.geojson; \
	"$$bin/quakes" list --db $(DEMO_DB) --sort magnitude --section day --min-magnitude 5; \
	COLUMNS=80 LINES=24 "$$bin/quakes" chart --db $(DEMO_DB) $(DEMO_CHART); \
	"$$bin/quakes" map --db $(DEMO_DB) $(DEMO_MAP) --output .build/demo/map.png

# The pictures the README shows, drawn from the demo's database: the chart's text replaces the
# block between the README's `make pictures` markers, the map is docs/map.png (which
# docs/pictures.md shows too).
DEMO_CHART = --by hour --since 2021-07-21 --utc
DEMO_MAP = --min-magnitude 2.5 --size 1000x560 --utc
pictures: demo
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" && set -e && mkdir -p docs && \
	cp .build/demo/map.png docs/map.png && \
	COLUMNS=80 LINES=24 "$$bin/quakes" chart --db $(DEMO_DB) $(DEMO_CHART) > .build/demo/chart.txt && \
	awk -v chart=.build/demo/chart.txt ' \
		/<!-- chart: make pictures -->/ { print; print "```"; while ((getline line < chart) > 0) print line; print "```"; skip = 1; next } \
		/<!-- end of chart -->/ { skip = 0 } \
		!skip { print }' README.md > .build/demo/README.md && \
	mv .build/demo/README.md README.md && echo "docs/map.png and the README's chart redrawn"

# The developer's loop: build, then every suite (in-process, through the binary, faults and
# signals). scripts/with-postgres gives the PostgreSQL tests a throwaway server (or the one
# QUAKES_TEST_POSTGRES already names).
# Swift Testing records a backtrace of every error thrown; the reference decoder's Decodable tries
# throw by the thousand, which would make the suites much slower. Only a failure's message loses the
# place an error was thrown.
TEST_ENVIRONMENT = SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0

# At most TEST_WIDTH tests at once, as under the sanitizers (SANITIZED_WIDTH, below): the commands
# the tests run in-process share the test process's cooperative pool, and with every test started
# together a fetch's steps wait behind other tests' decoders for minutes.
TEST_WIDTH ?= 8
# `swift test` running at most the number of tests that follows at once.
CAPPED_TEST = $(SWIFT) test --experimental-maximum-parallelization-width

test: test-deps
	$(SWIFT) build --build-tests
	$(TEST_ENVIRONMENT) scripts/with-postgres $(CAPPED_TEST) $(TEST_WIDTH) --skip-build

# What CI runs (.ci/run): `make test`, its long variants, the suites under AddressSanitizer and
# ThreadSanitizer, a minute of fuzzing, the quick benchmark run (its timings are not checked), every product built in
# release (with the flags the benchmarks' build used, so that only what they left out is compiled),
# and `swift format lint --strict` over Sources and Tests.
check: test
	$(MAKE) --no-print-directory test-long
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60
	$(MAKE) --no-print-directory bench-quick
	$(SWIFT) build $(RELEASE_FLAGS)
	$(MAKE) --no-print-directory lint

# swift-format, which ships with the toolchain, with the checked-in .swift-format configuration.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift

# The long variants that make check adds to make test: 1,500 random command lines answered alike by
# every engine, 1,500 random queries answered by SQLite as by the reference semantics in memory, and
# the processes that share a database fetching a 60,000-feature feed for real.
LONG_SUITES = EngineParityTests|ProcessTests|PostgresSharingTests|QuerySemanticsTests
test-long: test-deps
	$(SWIFT) build --build-tests
	$(TEST_ENVIRONMENT) QUAKES_LONG_TESTS=1 scripts/with-postgres $(SWIFT) test --skip-build --filter '$(LONG_SUITES)'

# The suites under ThreadSanitizer and AddressSanitizer, each in a build folder of its own; any
# report fails the run. Under ThreadSanitizer the code runs ten to twenty times slower.
# TSAN_SUITES narrows it (a --filter pattern) for a quicker look, TSAN_SKIP (a --skip pattern)
# leaves tests out.
TSAN_SUITES ?= .
TSAN_SKIP ?=
# At most SANITIZED_WIDTH tests at once under a sanitizer. Swift Testing otherwise starts every test
# of the process together, and the commands they run in-process share its cooperative threads:
# every hop of a fetch onto those threads waits behind dozens of other tests' decoders, and a
# watch that fetches can print nothing for minutes. Fewer at once also makes the run shorter.
SANITIZED_WIDTH ?= $(TEST_WIDTH)
SANITIZED_TEST = $(CAPPED_TEST) $(SANITIZED_WIDTH)
# atexit_sleep_ms=0: ThreadSanitizer otherwise sleeps a second at the exit of every process that
# started a thread, to catch races with threads still running, and the suites start the binary
# hundreds of times, each of which would then take a second for a few milliseconds of work.
test-tsan: test-deps
	$(TEST_ENVIRONMENT) QUAKES_SANITIZED=thread TSAN_OPTIONS="halt_on_error=1:atexit_sleep_ms=0" scripts/with-postgres \
		$(SANITIZED_TEST) --sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_SUITES)' $(if $(TSAN_SKIP),--skip '$(TSAN_SKIP)')

test-asan: test-deps
	$(TEST_ENVIRONMENT) QUAKES_SANITIZED=address ASAN_OPTIONS="halt_on_error=1" LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan.supp" \
		scripts/with-postgres $(SANITIZED_TEST) --sanitize=address --scratch-path .build/asan

# libFuzzer on the feed decoder, with AddressSanitizer, for FUZZ_SECONDS, from the seeds of Fuzz/
# and the corpus it grew before. A crash leaves its input in .build/fuzz/ and fails the run.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
fuzz: deps
	$(SWIFT) build --product quakes-fuzz $(FUZZ_FLAGS) --scratch-path .build/fuzz
	@mkdir -p .build/fuzz/corpus
	.build/fuzz/debug/quakes-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
		-dict=Fuzz/json.dict -artifact_prefix=.build/fuzz/ -print_final_stats=1 .build/fuzz/corpus Fuzz/seeds

# The reliability suites in their long mode (100 random kills, 2,000 damaged feeds, 20,000 command
# lines); their own report becomes the table of docs/reliability.md, between its two markers.
RELIABILITY_SUITES = BadInputTests|BadDownloadTests|FaultTests|DifferentialTests|CommandLineFuzzTests|SecurityTests|OutputFormatTests|\.SharingTests
reliability: test-deps
	$(SWIFT) build --build-tests
	@rm -f .build/reliability.tsv
	$(TEST_ENVIRONMENT) QUAKES_LONG_TESTS=1 QUAKES_RELIABILITY_REPORT=$(CURDIR)/.build/reliability.tsv \
		scripts/with-postgres $(SWIFT) test --skip-build --filter '$(RELIABILITY_SUITES)'
	@sort -t '	' -k1,1 -k2,2 .build/reliability.tsv | awk -F '\t' \
		'BEGIN { print "| | case | runs | outcome |"; print "| --- | --- | ---: | --- |" } \
		{ print "| " $$1 " | " $$2 " | " $$3 " | " $$4 " |" }' > .build/reliability.md
	@awk -v table=.build/reliability.md \
		'/<!-- reliability:begin -->/ { print; while ((getline line < table) > 0) print line; skipping = 1; next } \
		/<!-- reliability:end -->/ { skipping = 0 } !skipping { print }' docs/reliability.md > .build/reliability-page.md
	@mv .build/reliability-page.md docs/reliability.md
	@echo "docs/reliability.md: table rewritten from $$(wc -l < .build/reliability.tsv) cases"

# Benchmarks (see BENCHMARKS.md): the Python baseline needs python3 and the query baselines the
# sqlite3 tool, which is installed with apt-get when missing; a baseline that cannot run is left out.
# The PostgreSQL server it starts syncs to disk as a real one does (QUAKES_PG_DURABLE=1), unlike the tests'.
bench: test-deps static-cxx
	@command -v sqlite3 >/dev/null || { [ "$$(id -u)" -eq 0 ] && apt-get install -y -qq sqlite3 >/dev/null; } || true
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-measure
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-floor
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	QUAKES_PG_DURABLE=1 scripts/with-postgres sh -c '"$$0" run --quakes "$$1" --work .build/bench --output BENCHMARKS.md \
		--commit "$$2" --postgres "$$QUAKES_TEST_POSTGRES"' \
		"$$bin/quakes-bench" "$$bin/quakes" "$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# Every case of `make bench` once, on 20,000 features: checks that the suite runs.
bench-quick: test-deps static-cxx
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-measure
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes-floor
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	scripts/with-postgres sh -c '"$$0" run --quick --quakes "$$1" --work .build/bench-quick \
		--output .build/bench-quick/BENCHMARKS.md --postgres "$$QUAKES_TEST_POSTGRES" >/dev/null' \
		"$$bin/quakes-bench" "$$bin/quakes" && echo "bench-quick: every case ran; see .build/bench-quick/BENCHMARKS.md"

# The packed country outlines (Sources/QuakesData/countries-110m.outlines), made again
# from the GeoJSON beside them after that changes; a test fails while the two disagree. Also prints
# how long the data files take to load (as a debug build does).
geodata: deps
	$(SWIFT) build --product quakes-bench
	"$$($(SWIFT) build --show-bin-path)/quakes-bench" geodata --root "$(CURDIR)"

# scripts/startup.order, made again from a release build after the start-up path changed much
# (scripts/startup-order says how); valgrind traces the runs.
startup-order: build
	$(call install-packages,valgrind)
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" && scripts/startup-order "$$bin/quakes" && rm "$$bin/quakes"
	$(SWIFT) build $(RELEASE_FLAGS) --product quakes

# `make install` puts the binary in $(PREFIX)/bin, and the shell completions and the manual page,
# written by the binary just built from the same definitions as its --help, where bash-completion,
# zsh, fish and man look for them, and the data files (country outlines, places) in
# $(PREFIX)/share/quakes, where the binary looks for them (../share/quakes beside it): those SwiftPM
# copied beside the binary from QuakesData's resources. DESTDIR stages the whole tree elsewhere, for
# packaging.
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d
MAN1_DIR = $(PREFIX)/share/man/man1
DATA_DIR = $(PREFIX)/share/quakes

install: build
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" && set -ex && \
	mkdir -p .build/install && \
	"$$bin/quakes" completions bash > .build/install/quakes.bash && \
	"$$bin/quakes" completions zsh > .build/install/_quakes && \
	"$$bin/quakes" completions fish > .build/install/quakes.fish && \
	"$$bin/quakes" manual > .build/install/quakes.1 && \
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(BASH_COMPLETION_DIR)" "$(DESTDIR)$(ZSH_COMPLETION_DIR)" \
		"$(DESTDIR)$(FISH_COMPLETION_DIR)" "$(DESTDIR)$(MAN1_DIR)" "$(DESTDIR)$(DATA_DIR)" && \
	install -m 755 "$$bin/quakes" "$(DESTDIR)$(PREFIX)/bin/quakes" && \
	install -m 644 .build/install/quakes.bash "$(DESTDIR)$(BASH_COMPLETION_DIR)/quakes" && \
	install -m 644 .build/install/_quakes "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_quakes" && \
	install -m 644 .build/install/quakes.fish "$(DESTDIR)$(FISH_COMPLETION_DIR)/quakes.fish" && \
	install -m 644 .build/install/quakes.1 "$(DESTDIR)$(MAN1_DIR)/quakes.1" && \
	install -m 644 "$$bin"/quakes_QuakesData.resources/* "$(DESTDIR)$(DATA_DIR)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/quakes" "$(DESTDIR)$(BASH_COMPLETION_DIR)/quakes" \
		"$(DESTDIR)$(ZSH_COMPLETION_DIR)/_quakes" "$(DESTDIR)$(FISH_COMPLETION_DIR)/quakes.fish" \
		"$(DESTDIR)$(MAN1_DIR)/quakes.1"
	rm -rf "$(DESTDIR)$(DATA_DIR)"

clean:
	rm -rf .build
