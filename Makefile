# wl-toast: build, test and demo on Debian 12 with Swift 6.
#
#   make demo   install what is missing, build, show a demo and save a screenshot
#   make test   install what is missing, build, lint and run every test
#
# Checks beyond the tests (figures and how to read them in BENCHMARKS.md):
#
#   make sanitize   every test under AddressSanitizer, then ThreadSanitizer
#   make leaks      the owner under valgrind through LEAK_UPDATES updates
#   make soak       one owner driven for SOAK_SECONDS, its RSS, fds and threads sampled

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= debug

# Build: the C libraries. Tests and demo: a headless compositor, screenshots, fonts.
BUILD_PACKAGES = pkg-config libwayland-dev libcairo2-dev libxkbcommon-dev libpango1.0-dev \
  wayland-protocols
TEST_PACKAGES = sway swaybg grim weston jq xkb-data fonts-dejavu-core fonts-noto-cjk \
  fonts-noto-color-emoji libwayland-bin plasma-wayland-protocols libweston-10-dev \
  librust-wayland-protocols-dev

# For make leaks only.
CHECK_PACKAGES = valgrind

SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local

.PHONY: all deps build lint test demo bench docs install clean sanitize leaks soak

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
TEST_ENVIRONMENT = FONTCONFIG_FILE=$(CURDIR)/Tests/Fonts/fonts.conf LC_ALL=C.UTF-8

test: deps lint
	$(SWIFT) build --build-tests
	$(TEST_ENVIRONMENT) $(SWIFT) test --skip-build

demo: deps
	$(SWIFT) build --product wl-toast-demo
	$$($(SWIFT) build --show-bin-path)/wl-toast-demo

# The checks build and test while holding this lock, so that builds sharing a
# machine take turns; `SWIFT_LOCK=` turns it off.
SWIFT_LOCK ?= flock /tmp/swift-build.lock
LEAK_UPDATES ?= 10000
SOAK_SECONDS ?= 600

# Every suite under each sanitizer, from .build-asan and .build-tsan (the owner the
# live tests start too); any report, in out/sanitizers/, fails (scripts/sanitize.sh),
# after both have run.
sanitize: deps
	@status=0; for kind in address thread; do \
	  SWIFT="$(SWIFT)" SWIFT_LOCK="$(SWIFT_LOCK)" scripts/sanitize.sh $$kind || status=1; \
	done; exit $$status

# The owner under valgrind --leak-check=full through LEAK_UPDATES updates of one toast
# on a headless sway; report in out/leaks/valgrind.log (scripts/leaks.sh).
leaks: EXTRA_PACKAGES = $(CHECK_PACKAGES)
leaks: deps
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-owner
	scripts/leaks.sh "$$($(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --show-bin-path)" $(LEAK_UPDATES)

# One owner, random commands for SOAK_SECONDS; samples in out/soak/owner.csv; fails
# if RSS grows by more than 1 MiB or open descriptors grow (scripts/soak.sh).
soak: deps
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast
	$(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --product wl-toast-owner
	scripts/soak.sh "$$($(SWIFT_LOCK) $(SWIFT) build -c $(CONFIG) --show-bin-path)" $(SOAK_SECONDS)

# Release build, then timings on an embedded headless sway (see Sources/wl-toast-bench).
bench: deps
	$(SWIFT) build -c release --product wl-toast
	$(SWIFT) build -c release --product wl-toast-owner
	$(SWIFT) build -c release --product wl-toast-bench
	"$$($(SWIFT) build -c release --show-bin-path)/wl-toast-bench" \
	  "$$($(SWIFT) build -c release --show-bin-path)/wl-toast" 50

# API documentation of the libraries with DocC (from the toolchain) into out/docs.
docs: deps
	rm -rf out/symbol-graphs out/docs && mkdir -p out/symbol-graphs
	$(SWIFT) build --target ToastKit -Xswiftc -emit-symbol-graph \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/out/symbol-graphs
	rm -f out/symbol-graphs/WaylandScanner* out/symbol-graphs/wayland_scanner*
	$$(dirname $$(readlink -f $(SWIFT)))/docc convert --analyze \
	  --additional-symbol-graph-dir out/symbol-graphs --fallback-display-name wl-toast \
	  --fallback-bundle-identifier org.wl-toast --output-path out/docs
	@echo "Documentation: out/docs"

install: deps
	$(SWIFT) build -c release --product wl-toast
	$(SWIFT) build -c release --product wl-toast-owner
	install -D -m 755 "$$($(SWIFT) build -c release --show-bin-path)/wl-toast" "$(DESTDIR)$(PREFIX)/bin/wl-toast"
	install -D -m 755 "$$($(SWIFT) build -c release --show-bin-path)/wl-toast-owner" "$(DESTDIR)$(PREFIX)/bin/wl-toast-owner"
	install -D -m 644 man/wl-toast.1 "$(DESTDIR)$(PREFIX)/share/man/man1/wl-toast.1"

clean:
	rm -rf .build .build-asan .build-tsan out
