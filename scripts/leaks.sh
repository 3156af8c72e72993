#!/bin/bash
# make leaks: the owner under valgrind --leak-check=full through many updates of
# one toast, on a headless sway of its own: once with no screen reader, once with
# one listening on a private accessibility bus.
#
#   scripts/leaks.sh BIN-DIR [UPDATES [SCREEN-READER-UPDATES]]
#
# BIN-DIR holds the built wl-toast, wl-toast-owner and wl-toast-rig, which starts
# the headless sway and the screen reader's desktop as the tests start theirs
# (scripts/rig.sh). wl-toast starts the
# wl-toast-owner beside itself, so a copy of wl-toast goes into a directory
# whose wl-toast-owner is a script that execs valgrind on the real one.
#
# Two runs, one owner each, each on a sway of its own; each sends `--tag t --progress N`
# updates, then `hide`; the owner leaves after its linger and valgrind writes its
# report:
#
#   1. UPDATES (default 10000) with no session bus at all: the owner's AT-SPI
#      code only learns that there is none. Report: out/leaks/valgrind.log.
#   2. SCREEN-READER-UPDATES (default 2000; 0 skips the run) with a screen
#      reader on (wl-toast-rig --screen-reader: a private session bus,
#      at-spi2-core's bus launcher and registry, org.a11y.Status.ScreenReaderEnabled
#      set, and a libatspi listener registered for object:announcement),
#      which asks the owner about each toast it hears of. The owner must say
#      "screen-readers": "connected" before the updates, and the listener must
#      hear announcements. Then the accessibility bus crashes just as one more
#      update comes (see crash_accessibility_bus), and the owner must say it
#      has lost it. Report: out/leaks/valgrind-screen-reader.log; what the
#      listener heard: out/leaks/screen-reader-heard.jsonl.
#
# Separate runs rather than one: the first keeps its figures comparable with
# earlier ones (no D-Bus at all), and each report shows one path's memory.
#
# Exits 1 when a run fails, or valgrind reports a memory error or definitely
# or indirectly lost bytes that scripts/valgrind.supp does not explain, or when
# more than LEAK_SUPPRESSED_LIMIT bytes (default 65536) match those
# suppressions. Every process the script starts carries WL_TOAST_LEAKS_RIG in
# its environment, so do those its processes start (the accessibility bus's
# own dbus-daemon, which the launcher starts): on exit, whatever carries it is
# ended.
set -euo pipefail

bin=$(cd "$1" && pwd)
updates=${2:-10000}
a11y_updates=${3:-2000}
suppressed_limit=${LEAK_SUPPRESSED_LIMIT:-65536}
repository=$(cd "$(dirname "$0")/.." && pwd)
out="$repository/out/leaks"
# shellcheck source=scripts/rig.sh
. "$repository/scripts/rig.sh"

rm -rf "$out"
mkdir -p "$out"

# The rig's directory (the private buses' sockets and logs) and its mark.
rig=$(mktemp -d /tmp/wl-toast-leaks.XXXXXX)
chmod 700 "$rig"
export WL_TOAST_LEAKS_RIG="$rig"

# The processes whose environment carries this run's mark (never this shell).
rig_processes() {
  local environ pid entry
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    if [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ]; then continue; fi
    {
      while IFS= read -r -d '' entry; do
        if [ "$entry" = "WL_TOAST_LEAKS_RIG=$rig" ]; then
          echo "$pid"
          break
        fi
      done < "$environ"
    } 2> /dev/null || true
  done
}

# Ends every marked process (SIGTERM, then SIGKILL after 2 s), sway, and the rig.
end_rig() {
  local pids pid tries
  pids=$(rig_processes)
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill $pids 2> /dev/null || true
    # A stopped owner (crash_accessibility_bus) hears SIGTERM once continued.
    # shellcheck disable=SC2086
    kill -CONT $pids 2> /dev/null || true
    for ((tries = 0; tries < 20; tries++)); do
      pids=$(for pid in $pids; do kill -0 "$pid" 2> /dev/null && echo "$pid"; done || true)
      [ -z "$pids" ] && break
      sleep 0.1
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2> /dev/null || true
  fi
  stop_rig
  rm -rf "$rig"
  # Children of this shell that were ended (the daemons started with &).
  wait 2> /dev/null || true
}
trap end_rig EXIT
# A run's own commands: no bus of the caller's session reaches the owner.
unset DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS
start_rig "$bin/wl-toast-rig"

programs="$rig/programs"
mkdir "$programs"
cp "$bin/wl-toast" "$programs/wl-toast"
# Valgrind 3.19 (Debian 12) cannot read the toolchain's DWARF 5: the owner it runs
# keeps its symbol table (function names in the report) but not its debug info.
# The report goes to LEAKS_LOG, which each run sets for the owner it starts.
mkdir "$programs/real"
objcopy --strip-debug "$bin/wl-toast-owner" "$programs/real/wl-toast-owner"
cat > "$programs/wl-toast-owner" <<EOF
#!/bin/sh
exec valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \\
  --errors-for-leak-kinds=definite,indirect --num-callers=40 \\
  --suppressions="$repository/scripts/valgrind.supp" \\
  --log-file="\${LEAKS_LOG:?}" "$programs/real/wl-toast-owner" "\$@"
EOF
chmod 755 "$programs/wl-toast-owner"
toast="$programs/wl-toast"

export FONTCONFIG_FILE="$repository/Tests/Fonts/fonts.conf" LC_ALL=C.UTF-8

# wait_until WHAT SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds.
wait_until() {
  local what=$1 seconds=$2 tries=$(($2 * 10))
  shift 2
  until "$@"; do
    tries=$((tries - 1))
    if [ "$tries" -le 0 ]; then
      echo "leaks: no $what after $seconds s" >&2
      return 1
    fi
    sleep 0.1
  done
}

# run_owner NAME COUNT: one owner under valgrind (report out/leaks/NAME.log)
# through COUNT updates, then hide; waits until it has left. RUN_BEFORE_UPDATES
# and RUN_AFTER_UPDATES: functions to call around the updates, if any.
# RUN_STARTED: when it began; RUN_OWNER: its pid; RUN_SURFACES: the surfaces it
# created.
run_owner() {
  local name=$1 count=$2 owner i tries
  export LEAKS_LOG="$out/$name.log"
  RUN_STARTED=$(date +%s)
  # The first command starts the owner (under valgrind: seconds, not milliseconds).
  "$toast" --tag t --timeout 0 --progress 0 "Update 0 of $count"
  owner=$("$toast" status --tag t | jq -r .owner)
  RUN_OWNER=$owner
  if [ -n "${RUN_BEFORE_UPDATES:-}" ]; then "$RUN_BEFORE_UPDATES"; fi
  for ((i = 1; i <= count; i++)); do
    "$toast" --tag t --timeout 0 --progress $((i % 101)) "Update $i of $count"
    if ((i % 1000 == 0)); then
      echo "  $i updates, $(($(date +%s) - RUN_STARTED)) s, owner RSS" \
        "$(awk '/VmRSS/ {print $2, $3}' "/proc/$owner/status")"
    fi
  done
  if [ -n "${RUN_AFTER_UPDATES:-}" ]; then "$RUN_AFTER_UPDATES"; fi
  RUN_SURFACES=$("$toast" status --tag t | jq -r .surfaces)
  "$toast" hide --tag t
  # The owner leaves one linger (1 s) after its last toast; valgrind then checks.
  for ((tries = 0; tries < 600; tries++)); do
    kill -0 "$owner" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$owner" 2> /dev/null; then
    echo "leaks: the owner (pid $owner) did not leave within 60 s of hide" >&2
    return 1
  fi
  echo "leaks: done in $(($(date +%s) - RUN_STARTED)) s; the owner created" \
    "$RUN_SURFACES surface(s)"
}

# check_report LOG: prints valgrind's summary; fails on lost bytes, memory errors,
# or too much suppressed.
check_report() {
  local log=$1 definite indirect suppressed errors
  # The summary; the loss records (definite, indirect, possible) are in the log.
  sed 's/^==[0-9]*== *//' "$log" \
    | grep -E '^(in use at exit|total heap usage|definitely lost|indirectly lost|possibly lost|still reachable|suppressed):' \
    | sed 's/^/  /' || true
  lost() {
    sed -n "s/.* $1: \([0-9,]*\) bytes.*/\1/p" "$log" | tr -d , | tail -1
  }
  definite=$(lost "definitely lost")
  indirect=$(lost "indirectly lost")
  suppressed=$(lost suppressed)
  suppressed=${suppressed:-0}
  # Leak records count as errors (--errors-for-leak-kinds), as do invalid reads and
  # writes, uses of uninitialised values and bad frees.
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tr -d , | tail -1)
  if [ -z "$definite" ] && grep -q "All heap blocks were freed" "$log"; then
    definite=0 indirect=0 suppressed=0
  fi
  if [ -z "$definite" ]; then
    echo "leaks: no leak summary in $log" >&2
    return 1
  fi
  echo "leaks: definitely lost $definite bytes, indirectly lost $indirect bytes;" \
    "$suppressed bytes suppressed as fontconfig's (report: $log)"
  if [ "$definite" != 0 ] || [ "$indirect" != 0 ] || [ "${errors:-1}" != 0 ]; then
    echo "leaks: valgrind reported ${errors:-unknown} error(s) (lost memory or memory errors);" \
      "see $log" >&2
    return 1
  fi
  if [ "$suppressed" -gt "$suppressed_limit" ]; then
    echo "leaks: $suppressed bytes matched the fontconfig suppressions, more than" \
      "$suppressed_limit: something keeps making patterns" >&2
    return 1
  fi
}

status=0

# 1. No screen reader: no session bus.
echo "leaks: $updates updates of one toast, the owner under valgrind, no screen reader"
no_screen_reader() {
  echo "  screen readers: $("$toast" status --tag t | jq -r '."screen-readers"')"
}
RUN_BEFORE_UPDATES=no_screen_reader
# A run that fails (a command, the owner) ends the script here (set -e): the
# functions run outside any condition, where bash would ignore their failures.
run_owner valgrind "$updates"
check_report "$out/valgrind.log" || status=1

((a11y_updates > 0)) || exit $status

# 2. A screen reader on a private desktop: a second rig, with --screen-reader.
echo "leaks: $a11y_updates updates of one toast, the owner under valgrind, a screen reader on"
a11y_run() {
  stop_rig
  start_rig "$bin/wl-toast-rig" --screen-reader
  heard=$WL_TOAST_RIG_HEARD
  echo "  accessibility bus $WL_TOAST_RIG_ACCESSIBILITY_BUS; the listener hears object:announcement"
  RUN_BEFORE_UPDATES=screen_reader_connected
  RUN_AFTER_UPDATES=after_screen_reader_updates
  run_owner valgrind-screen-reader "$a11y_updates"
}
# Before the updates: the owner is on the accessibility bus and registered.
screen_reader_connected() {
  local state tries
  for ((tries = 0; tries < 600; tries++)); do
    state=$("$toast" status --tag t | jq -r '."screen-readers"')
    [ "$state" = connected ] && break
    sleep 0.1
  done
  echo "  screen readers: $state"
  if [ "$state" != connected ]; then
    echo "leaks: the owner's screen readers are '$state', not 'connected', after 60 s" >&2
    return 1
  fi
}
# After the updates: the last announcement (merged for 150 ms) is sent and the
# listener has asked about it before the toast leaves (at most 10 s).
listener_caught_up() {
  local lines=-1 now tries
  for ((tries = 0; tries < 10; tries++)); do
    sleep 1
    now=$(wc -l < "$heard")
    [ "$now" = "$lines" ] && break
    lines=$now
  done
}
# The accessibility bus crashes just as an update comes. The owner is stopped
# (SIGSTOP) while the bus's daemon is killed and a command sends the update, so
# that it finds both when it resumes; it reads the update first (its clients'
# socket is watched before the bus's), announces it into a connection that is
# gone (the first send fails and closes it; the rest must be dropped and
# released: this found a leak of the rest's GVariant), and then says "failed"
# (or "no-screen-reader", when the launcher left with its bus).
crash_accessibility_bus() {
  local command state
  kill -STOP "$RUN_OWNER"
  crash_rig_accessibility_bus
  "$toast" --tag t --timeout 0 --progress 100 "Update as the accessibility bus crashed" &
  command=$!
  sleep 0.5
  kill -CONT "$RUN_OWNER"
  wait "$command"
  state=$("$toast" status --tag t | jq -r '."screen-readers"')
  echo "  the accessibility bus crashed during an update; screen readers: $state"
  # The launcher may go with its bus: then org.a11y.Bus has no owner (as in
  # Tests/SwayTests/ScreenReaderTests.swift).
  if [ "$state" != failed ] && [ "$state" != no-screen-reader ]; then
    echo "leaks: the owner's screen readers are '$state' after the bus crashed," \
      "not 'failed' or 'no-screen-reader'" >&2
    return 1
  fi
}
after_screen_reader_updates() {
  listener_caught_up
  crash_accessibility_bus
}
a11y_run
heard_copy="$out/screen-reader-heard.jsonl"
cp "$heard" "$heard_copy"
heard=$heard_copy
# The ready line is no event; an "unreadable" source is one the owner did not answer for.
announcements=$(jq -s '[.[] | select(.type == "object:announcement")] | length' "$heard")
unreadable=$(jq -s '[.[] | select(.type == "object:announcement")
  | select(.name | tostring | startswith("unreadable"))] | length' "$heard")
last=$(jq -rs '[.[] | select(.type == "object:announcement")] | last | .data // ""' "$heard")
echo "leaks: the listener heard $announcements announcement(s) ($unreadable of a toast" \
  "it could not read), the last \"$last\" ($heard)"
if [ "$announcements" = 0 ]; then
  echo "leaks: the listener heard no announcement" >&2
  status=1
fi
check_report "$out/valgrind-screen-reader.log" || status=1
exit $status
