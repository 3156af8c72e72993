#!/bin/bash
# make sanitize: every test suite built and run under one sanitizer.
#
#   scripts/sanitize.sh address|thread
#
# The build goes to its own directory (.build-asan, .build-tsan), never .build.
# The wl-toast and wl-toast-owner the live tests start come from that directory,
# so they are sanitized too; they write their reports, like the test process, to
# out/sanitizers/KIND/report.PID (log_path), not to a standard error that a test
# reads or nobody sees. Any report file fails the run, after printing it.
# scripts/lsan.supp holds the only suppressions (third-party code).
#
# SWIFT is the swift command; SWIFT_LOCK (default `flock /tmp/swift-build.lock`)
# prefixes the build and the test run, so that builds sharing a machine take turns.
#
# The tests run in the environment of `make test` (its fonts, locale and an empty
# XDG_CONFIG_HOME, so that no user's config file changes a toast). The river tests
# run only when WL_TOAST_RIVER_BIN names river's programs (`make river` prints
# the directory); otherwise they are skipped, as `make test` skips them.
set -euo pipefail

kind=${1:-}
case "$kind" in
  address) build=.build-asan ;;
  thread) build=.build-tsan ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread" >&2
    exit 64
    ;;
esac
repository=$(cd "$(dirname "$0")/.." && pwd)
cd "$repository"
swift=${SWIFT:-swift}
read -r -a lock <<< "${SWIFT_LOCK-flock /tmp/swift-build.lock}"
logs="$repository/out/sanitizers/$kind"

# Package.swift links the programs without -static-stdlib in sanitizer builds:
# with it, the sanitizer's malloc and free are hidden from the C libraries.
export WL_TOAST_SANITIZE=$kind
"${lock[@]}" "$swift" build --sanitize="$kind" --build-path "$build" --build-tests

rm -rf "$logs"
mkdir -p "$logs"
# Programs that sway's bindings start run as sway's user (65534 under root).
chmod 1777 "$logs"
case "$kind" in
  address)
    export ASAN_OPTIONS="log_path=$logs/report:detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=40:detect_stack_use_after_return=1:strict_string_checks=1"
    export LSAN_OPTIONS="suppressions=$repository/scripts/lsan.supp:print_suppressions=0"
    ;;
  thread)
    export TSAN_OPTIONS="log_path=$logs/report:second_deadlock_stack=1:history_size=4"
    ;;
esac

skip=()
if [ -z "${WL_TOAST_RIVER_BIN:-}" ]; then
  skip=(--skip '^RiverTests\.')
  echo "sanitize: $kind: the river tests are skipped (WL_TOAST_RIVER_BIN is not set)" >&2
fi
status=0
FONTCONFIG_FILE="$repository/Tests/Fonts/fonts.conf" LC_ALL=C.UTF-8 \
  XDG_CONFIG_HOME="$repository/$build/no-config" \
  "${lock[@]}" "$swift" test --skip-build --sanitize="$kind" --build-path "$build" \
  "${skip[@]}" || status=$?

reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  for report in $reports; do
    program=$(grep -o -m1 "(/[^ +)]*/$build/[^ +)]*" "$report" | tr -d '(' || true)
    echo
    echo "=== $report (${program##*/})"
    cat "$report"
  done
  echo
  echo "sanitize: $kind: $(echo "$reports" | wc -l) report(s) in $logs" >&2
  status=1
elif [ "$status" = 0 ]; then
  echo "sanitize: $kind: every test passed, no reports"
fi
exit "$status"
