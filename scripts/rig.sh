# Sourced by scripts/leaks.sh and scripts/soak.sh: the tests' own headless sway,
# and with --screen-reader a private desktop where a screen reader is on, started
# by wl-toast-rig (Sources/wl-toast-rig) as the tests start theirs: one way to
# start a test compositor and a private bus.
#
#   start_rig PROGRAM [--screen-reader]   starts it and exports its environment
#                                         (WAYLAND_DISPLAY, XDG_RUNTIME_DIR, and the
#                                         desktop's DBUS_SESSION_BUS_ADDRESS,
#                                         WL_TOAST_RIG_HEARD: what the listener hears)
#   crash_rig_accessibility_bus           kills the accessibility bus's daemon, as a crash
#   stop_rig                              stops it all

RIG_PID=""
RIG_ENV=""

start_rig() {
  local program=$1
  shift
  RIG_ENV=$(mktemp /tmp/wl-toast-rig-env.XXXXXX)
  "$program" "$RIG_ENV" "$@" 2> "$RIG_ENV.log" &
  RIG_PID=$!
  local tries=0
  until grep -q '^# ready$' "$RIG_ENV" 2> /dev/null; do
    if ! kill -0 "$RIG_PID" 2> /dev/null; then
      echo "wl-toast-rig exited:" >&2
      cat "$RIG_ENV.log" >&2
      return 1
    fi
    tries=$((tries + 1))
    if [ "$tries" -gt 600 ]; then
      echo "wl-toast-rig was not ready in 60 s" >&2
      return 1
    fi
    sleep 0.1
  done
  # shellcheck disable=SC1090
  . "$RIG_ENV"
}

crash_rig_accessibility_bus() {
  kill -USR1 "$RIG_PID"
  local tries=0
  until grep -q '^# crashed$' "$RIG_ENV"; do
    if grep -q '^# not crashed' "$RIG_ENV" || [ "$tries" -gt 100 ]; then
      echo "wl-toast-rig could not crash the accessibility bus: $(tail -1 "$RIG_ENV")" >&2
      return 1
    fi
    tries=$((tries + 1))
    sleep 0.1
  done
}

stop_rig() {
  if [ -n "$RIG_PID" ]; then
    kill "$RIG_PID" 2> /dev/null || true
    wait "$RIG_PID" 2> /dev/null || true
    RIG_PID=""
  fi
  if [ -n "$RIG_ENV" ]; then
    rm -f "$RIG_ENV" "$RIG_ENV.log"
    RIG_ENV=""
  fi
}
