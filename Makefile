# wl-toast: build, test and demo on Debian 12 with Swift 6.
#
#   make demo   install what is missing, build, show a demo and save a screenshot
#   make test   install what is missing, build, lint and run every test
#
# On a real river (not in Debian 12: built from a source archive, RIVER_SRC):
#
#   make river        build river once into RIVER_CACHE (Zig 0.9.1 from PyPI)
#   make test-river   build river if need be, then run the river tests
#
# Checks beyond the tests (figures and how to read them in BENCHMARKS.md):
#
#   make sanitize   every test under AddressSanitizer, then ThreadSanitizer
#   make leaks      the owner under valgrind through LEAK_UPDATES updates, then
#                   LEAK_A11Y_UPDATES with a screen reader listening
#   make soak       one owner driven for SOAK_SECONDS, its RSS, fds and threads sampled
#   make fuzz       fuzz each parser and the D-Bus input under libFuzzer, FUZZ_SECONDS (60) each
#   make bench      wl-toast beside wob, swaynag and mako, ROUNDS rounds (default 20)
#   make link-orders  link/owner-order.txt and command-order.txt again, from callgrind profiles

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= debug

# Build: the C libraries. Tests and demo: a headless compositor, screenshots, fonts;
# for --sound, a private PulseAudio and PipeWire and parec, libcanberra (opened with dlopen,
# nothing to build against) with its PulseAudio backend, and the sound theme.
BUILD_PACKAGES = pkg-config libwayland-dev libcairo2-dev libxkbcommon-dev libpango1.0-dev \
  librsvg2-dev wayland-protocols libpulse-dev libudev-dev
TEST_PACKAGES = sway swaybg grim weston jq xkb-data fish zsh fonts-dejavu-core fonts-noto-cjk \
  fonts-noto-color-emoji libwayland-bin plasma-wayland-protocols libweston-10-dev \
  librust-wayland-protocols-dev kwin-wayland libkf5screen-bin qtwayland5 dbus-daemon \
  libgl1-mesa-dri libglib2.0-dev adwaita-icon-theme gtk-update-icon-cache at-spi2-core \
  python3-gi gir1.2-atspi-2.0 orca xvfb speech-dispatcher libnotify-bin libglib2.0-bin dbus-bin \
  python3-dbus dunst zenity \
  pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber libcanberra0 \
  libcanberra-pulse sound-theme-freedesktop sox umockdev gir1.2-umockdev-1.0 mpv mpv-mpris \
  playerctl

# For make leaks only (and dbus-send, for its private accessibility bus).
CHECK_PACKAGES = valgrind dbus-bin

# For make river and make test-river: river's build (Zig comes from PyPI in a venv)
# and wlr-randr, which places the test river's outputs.
RIVER_PACKAGES = libwlroots-dev libevdev-dev libinput-dev libpixman-1-dev libxkbcommon-dev \
  wayland-protocols pkg-config python3-venv wlr-randr

# For make bench only: the peers wl-toast is measured against (sway brings swaynag),
# the private session bus that starts mako, and /usr/bin/time.
BENCH_PACKAGES = wob mako-notifier libnotify-bin dbus-daemon dbus-bin time

SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local

.PHONY: previews all deps build lint test demo bench bench-deps bench-quick docs install clean \
  package-deps release-build deb dist test-package \
  sanitize leaks soak fuzz river test-river link-orders

all: build

deps:
	@missing=""; \
	for package in $(BUILD_PACKAGES) $(TEST_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q 'install ok installed' \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Plugins

# Tests see only the fonts of TEST_PACKAGES (Tests/Fonts/fonts.conf) and one locale,
# so renders and reference images match on any Debian 12 machine.
TEST_ENVIRONMENT = FONTCONFIG_FILE=$(CURDIR)/Tests/Fonts/fonts.conf LC_ALL=C.UTF-8 \
  XDG_CONFIG_HOME=$(CURDIR)/.build/no-config

# Everything but the river tests, which need river's source (make test-river).
test: deps lint
	$(SWIFT) build --build-tests
	$(TEST_ENVIRONMENT) $(SWIFT) test --skip-build --skip '^RiverTests\.'

# river's source archive (river 5eb0e23 and its Zig libraries) and where its build
# is kept: RIVER_CACHE/river-HASH/bin, one per archive (scripts/build-river.sh).
# The archive beside the checkout (../shared/river/), or, for a clone made
# elsewhere (CI's clean clone), beside the repository it was cloned from.
RIVER_ARCHIVE = shared/river/river-5eb0e23-src.tar.gz
RIVER_ORIGIN := $(shell git remote get-url origin 2>/dev/null)
RIVER_SRC ?= $(firstword $(wildcard $(CURDIR)/../$(RIVER_ARCHIVE) \
  $(if $(RIVER_ORIGIN),$(RIVER_ORIGIN)/../$(RIVER_ARCHIVE))) $(CURDIR)/../$(RIVER_ARCHIVE))
RIVER_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wl-toast
RIVER_MISSING = echo "make $@: no river source archive at '$(RIVER_SRC)'; set RIVER_SRC to the" \
  "path of river-5eb0e23-src.tar.gz (river at commit 5eb0e23 with its Zig libraries)" >&2; exit 1

river: EXTRA_PACKAGES = $(RIVER_PACKAGES)
river: deps
	@[ -f "$(RIVER_SRC)" ] || { $(RIVER_MISSING); }
	SWIFT_LOCK="$(SWIFT_LOCK)" scripts/build-river.sh "$(RIVER_SRC)" "$(RIVER_CACHE)"

# The river tests (Tests/RiverTests) on the river that make river builds.
test-river: EXTRA_PACKAGES = $(RIVER_PACKAGES)
test-river: deps
	@[ -f "$(RIVER_SRC)" ] || { $(RIVER_MISSING); }
	@bin=$$(SWIFT_LOCK="$(SWIFT_LOCK)" scripts/build-river.sh "$(RIVER_SRC)" "$(RIVER_CACHE)") \
	  && echo "river: $$bin" \
	  && $(SWIFT_LOCK) $(SWIFT) build --build-tests \
	  && WL_TOAST_RIVER_BIN="$$bin" $(TEST_ENVIRONMENT) \
	    $(SWIFT_LOCK) $(SWIFT) test --skip-build --filter '^RiverTests\.'

demo: deps
	$(SWIFT) build --product wl-toast-demo
	$$($(SWIFT) build --show-bin-path)/wl-toast-demo

# The checks build and test while holding this lock, so that builds sharing a
# machine take turns; `SWIFT_LOCK=` turns it off.
SWIFT_LOCK ?= flock /tmp/swift-build.lock
LEAK_UPDATES ?= 10000
LEAK_A11Y_UPDATES ?= 2000
SOAK_SECONDS ?= 600

# Every suite under each sanitizer, from .build-asan and .build-tsan (the owner the
# live tests start too); any report, in out/sanitizers/, fails (scripts/sanitize.sh),
# after both have run. The river tests run only with WL_TOAST_RIVER_BIN set to the
# directory `make river` prints.
sanitize: deps
	@status=0; for kind in address thread; do \
	  SWIFT="$(SWIFT)" SWIFT_LOCK="$(SWIFT_LOCK)" scripts/sanitize.sh $$kind || status=1; \
	done; exit $$status

# The owner under valgrind --leak-check=full through LEAK_UPDATES updates of one toast
# on a headless sway with no screen reader (report in out/leaks/valgrind.log), then
# through LEAK_A11Y_UPDATES (0: none) with a screen reader's listener on a private
# accessibility bus (out/leaks/valgrind-screen-reader.log); scripts/leaks.sh.
leaks: EXTRA_PACKAGES = $(CHECK_PACKAGES)
leaks: deps
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-owner
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-rig
	scripts/leaks.sh "$$($(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --show-bin-path)" \
	  $(LEAK_UPDATES) $(LEAK_A11Y_UPDATES)

# One owner, random commands for SOAK_SECONDS; samples in out/soak/owner.csv; fails
# if RSS grows by more than 1 MiB or open descriptors grow (scripts/soak.sh).
soak: deps
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-owner
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-rig
	scripts/soak.sh "$$($(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --show-bin-path)" $(SOAK_SECONDS)

# wl-toast beside wob, swaynag and mako on one embedded headless sway, ROUNDS rounds
# (Sources/wl-toast-bench): a Markdown table on standard output and the same as JSON
# in BENCH_JSON. The measurement itself also holds SWIFT_LOCK, so that builds sharing
# the machine wait rather than add noise. bench-quick: 3 rounds of the debug build
# that `make test` made, for CI; it checks that everything runs and asserts no timing.
ROUNDS ?= 20
BENCH_CONFIG ?= release
BENCH_JSON ?= $(CURDIR)/out/bench/bench.json

bench-deps: EXTRA_PACKAGES = $(BENCH_PACKAGES)
bench-deps: deps

bench: bench-deps
	$(SWIFT_LOCK) $(SWIFT) build -c $(BENCH_CONFIG) --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c $(BENCH_CONFIG) --product wl-toast-owner
	$(SWIFT_LOCK) $(SWIFT) build -c $(BENCH_CONFIG) --product wl-toast-bench
	bin="$$($(SWIFT_LOCK) $(SWIFT) build -c $(BENCH_CONFIG) --show-bin-path)" && \
	  $(SWIFT_LOCK) "$$bin/wl-toast-bench" --rounds $(ROUNDS) --json "$(BENCH_JSON)" "$$bin"

# lld's orders of the owner's and the command's functions (link/owner-order.txt,
# link/command-order.txt) from callgrind profiles of the release programs: a first
# toast, the notification server (cards, an update, ten at once), updates, then
# toasts of other kinds (scripts/link-orders.sh). Run it again
# when the code has changed much; then delete the two programs, whose link SwiftPM
# does not redo for a new order alone.
link-orders: EXTRA_PACKAGES = $(CHECK_PACKAGES)
link-orders: deps
	$(SWIFT_LOCK) $(SWIFT) build -c release --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c release --product wl-toast-owner
	$(SWIFT_LOCK) $(SWIFT) build -c release --product wl-toast-rig
	scripts/link-orders.sh "$$($(SWIFT_LOCK) $(SWIFT) build -c release --show-bin-path)"

bench-quick:
	$(MAKE) bench ROUNDS=3 BENCH_CONFIG=debug BENCH_JSON=$(CURDIR)/out/bench/quick.json

# Fuzzing: one libFuzzer run of FUZZ_SECONDS per target, with AddressSanitizer, in a build
# directory of its own. Each run starts from Tests/Fuzz/TARGET/seeds and crashes and keeps
# what it finds in out/fuzz/TARGET (a crash as out/fuzz/TARGET-crash-*); the log is
# out/fuzz/TARGET.log. The flags go in a toolset, which reaches only the code built for
# the target: with -Xswiftc they would also reach the scanner the build-tool plugin runs.
# Fontconfig keeps its caches through offsets that LeakSanitizer cannot follow: not leaks.
# The targets: messages json follow arguments config markup scanner bus nag notifications watchers
# (Sources/FuzzTargets). bus, notifications and watchers run with G_DEBUG=fatal-criticals: a GLib
# assertion that fails on what a bus or a client sends is a crash (GLib would go on in a
# state it calls undefined).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= messages json follow arguments config markup scanner bus nag notifications watchers svg
FUZZ_TOOLSET = {"schemaVersion": "1.0", "swiftCompiler": {"extraCLIOptions": \
  ["-sanitize=fuzzer,address", "-DFUZZING"]}}
FUZZ_BUILD = --build-path .build-fuzz -c release --toolset $(CURDIR)/.build-fuzz/toolset.json

fuzz: deps
	mkdir -p .build-fuzz && echo '$(FUZZ_TOOLSET)' > .build-fuzz/toolset.json \
	  && echo 'leak:libfontconfig.so' > .build-fuzz/lsan.supp
	$(SWIFT) build $(FUZZ_BUILD) --product wl-toast-fuzz
	@fuzzer="$$($(SWIFT) build $(FUZZ_BUILD) --show-bin-path)/wl-toast-fuzz"; status=0; \
	for target in $(FUZZ_TARGETS); do \
	  mkdir -p out/fuzz/$$target; \
	  corpora="out/fuzz/$$target Tests/Fuzz/$$target/seeds"; \
	  [ -d Tests/Fuzz/$$target/crashes ] && corpora="$$corpora Tests/Fuzz/$$target/crashes"; \
	  gdebug=; case $$target in bus|notifications|watchers) gdebug=fatal-criticals;; esac; \
	  FUZZ_TARGET=$$target G_DEBUG=$$gdebug SWIFT_BACKTRACE=enable=no $(TEST_ENVIRONMENT) \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/.build-fuzz/lsan.supp "$$fuzzer" \
	    -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
	    -artifact_prefix=out/fuzz/$$target- $$corpora > out/fuzz/$$target.log 2>&1 \
	    || { status=1; echo "$$target: FAILED, see out/fuzz/$$target.log"; }; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' out/fuzz/$$target.log); \
	  rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' out/fuzz/$$target.log); \
	  echo "$$target: $${runs:-0} inputs executed ($${rate:-0}/s)"; \
	done; exit $$status

# API documentation of the libraries with DocC (from the toolchain) into out/docs; a
# broken link or a warning fails it (CI runs it).
DOC_MODULES = ToastKit ToastModel ToastRendering Wayland
docs: deps
	rm -rf out/symbol-graphs out/docs && mkdir -p out/symbol-graphs
	$(SWIFT) package dump-symbol-graph --minimum-access-level public
	graphs="$$($(SWIFT) build --show-bin-path)/../symbolgraph" && for module in $(DOC_MODULES); do \
	  cp "$$graphs/$$module.symbols.json" "$$graphs/$$module@"*.symbols.json out/symbol-graphs/ \
	    2>/dev/null; test -f out/symbol-graphs/$$module.symbols.json || exit 1; done
	$$(dirname $$(readlink -f $(SWIFT)))/docc convert --analyze --warnings-as-errors \
	  --additional-symbol-graph-dir out/symbol-graphs --fallback-display-name wl-toast \
	  --fallback-bundle-identifier org.wl-toast --output-path out/docs
	@echo "Documentation: out/docs"

install: deps
	$(SWIFT) build -c release --product wl-toast
	$(SWIFT) build -c release --product wl-toast-owner
	install -D -m 755 "$$($(SWIFT) build -c release --show-bin-path)/wl-toast" "$(DESTDIR)$(PREFIX)/bin/wl-toast"
	install -D -m 755 "$$($(SWIFT) build -c release --show-bin-path)/wl-toast-owner" "$(DESTDIR)$(PREFIX)/libexec/wl-toast/wl-toast-owner"
	rm -f "$(DESTDIR)$(PREFIX)/bin/wl-toast-owner"  # where versions before 0.1.0's package had it
	mkdir -p "$(DESTDIR)$(PREFIX)/share/doc/wl-toast/examples"
	cp -R Examples/. "$(DESTDIR)$(PREFIX)/share/doc/wl-toast/examples/"
	install -D -m 644 man/wl-toast.1 "$(DESTDIR)$(PREFIX)/share/man/man1/wl-toast.1"
	install -D -m 644 man/wl-toast.5 "$(DESTDIR)$(PREFIX)/share/man/man5/wl-toast.5"
	install -D -m 644 man/wl-toast-nag.1 "$(DESTDIR)$(PREFIX)/share/man/man1/wl-toast-nag.1"
	install -D -m 644 systemd/wl-toast@.socket "$(DESTDIR)$(PREFIX)/lib/systemd/user/wl-toast@.socket"
	sed 's|@OWNER@|$(PREFIX)/libexec/wl-toast/wl-toast-owner|' systemd/wl-toast@.service > wl-toast@.service.tmp
	install -D -m 644 wl-toast@.service.tmp "$(DESTDIR)$(PREFIX)/lib/systemd/user/wl-toast@.service"
	rm -f wl-toast@.service.tmp
	install -D -m 644 systemd/wl-toast-notifications.service "$(DESTDIR)$(PREFIX)/lib/systemd/user/wl-toast-notifications.service"
	install -D -m 644 systemd/wl-toast-watch.service "$(DESTDIR)$(PREFIX)/lib/systemd/user/wl-toast-watch.service"
	bin="$$($(SWIFT) build -c release --show-bin-path)"; \
	"$$bin/wl-toast" completions bash > completions.tmp && \
	install -D -m 644 completions.tmp "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/wl-toast" && \
	"$$bin/wl-toast" completions zsh > completions.tmp && \
	install -D -m 644 completions.tmp "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wl-toast" && \
	"$$bin/wl-toast" completions fish > completions.tmp && \
	install -D -m 644 completions.tmp "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wl-toast.fish"; \
	status=$$?; rm -f completions.tmp; exit $$status

# Packages, from the release build, with Debian's tools (scripts/package.sh):
# make deb   out/wl-toast_VERSION_amd64.deb, checked by lintian
# make dist  out/wl-toast-VERSION-x86_64-linux.tar.gz, with install.sh
# make test-package  both installed in a clean Debian 12 root (mmdebstrap) and
#                    used there (scripts/test-package.sh)
# The version has one place: Toast.version (Sources/ToastModel/Toast.swift).
VERSION := $(shell sed -n 's/.*public static let version = "\(.*\)"/\1/p' Sources/ToastModel/Toast.swift)
PACKAGE_PACKAGES = dpkg-dev lintian mmdebstrap
PACKAGE_BIN = $$($(SWIFT_LOCK) $(SWIFT) build -c release --show-bin-path)

package-deps: EXTRA_PACKAGES = $(PACKAGE_PACKAGES)
package-deps: deps

release-build: package-deps
	$(SWIFT_LOCK) $(SWIFT) build -c release --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c release --product wl-toast-owner

deb: release-build
	mkdir -p out
	sh scripts/package.sh deb "$(PACKAGE_BIN)" $(VERSION) "$(CURDIR)/out"
	lintian --fail-on error,warning \
	  out/wl-toast_$(VERSION)_amd64.deb

dist: release-build
	mkdir -p out
	sh scripts/package.sh dist "$(PACKAGE_BIN)" $(VERSION) "$(CURDIR)/out"

test-package: deb dist
	$(SWIFT_LOCK) $(SWIFT) build --product wl-toast-rig
	sh scripts/test-package.sh $(VERSION) "$(CURDIR)/out" \
	  "$$($(SWIFT_LOCK) $(SWIFT) build --show-bin-path)/wl-toast-rig"

# The README's pictures, drawn by wl-toast --render-png (no compositor), with the
# tests' fonts so that they look the same on every machine.
previews: deps
	$(SWIFT) build --product wl-toast
	$(SWIFT) build --product wl-toast-owner
	mkdir -p docs
	bin="$$($(SWIFT) build --show-bin-path)"; export $(TEST_ENVIRONMENT); \
	"$$bin/wl-toast" --render-png docs/hud.png --scale 2 --spinner "Backing up" && \
	"$$bin/wl-toast" --render-png docs/volume.png --scale 2 --progress 130 "Volume 130%" && \
	"$$bin/wl-toast" --render-png docs/banner.png --scale 2 --style banner "Copied to clipboard"

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz out
