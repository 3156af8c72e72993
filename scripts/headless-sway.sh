# Sourced by scripts/leaks.sh and scripts/soak.sh: a headless sway of their own,
# as Sources/TestSupport/HeadlessSway.swift starts one for the tests.
#
#   start_sway         starts sway in a private runtime directory ($SWAY_DIR) and
#                      exports WAYLAND_DISPLAY (the absolute socket path) and
#                      XDG_RUNTIME_DIR (a private directory for wl-toast's socket)
#   stop_sway          stops it and removes $SWAY_DIR
#
# sway refuses to run as root, so as root it runs as uid 65534 through setpriv;
# one 1280x720 output, pixman renderer, no input devices, no Xwayland.

SWAY_DIR=""
SWAY_PID=""

start_sway() {
  SWAY_DIR=$(mktemp -d /tmp/wl-toast-script-sway.XXXXXX)
  chmod 700 "$SWAY_DIR"
  mkdir -m 700 "$SWAY_DIR/runtime" "$SWAY_DIR/client"
  cat > "$SWAY_DIR/runtime/config" <<'EOF'
xwayland disable
output HEADLESS-1 mode 1280x720 position 0 0
output * bg #204080 solid_color
default_border none
focus_follows_mouse no
EOF
  local run_as=""
  if [ "$(id -u)" = 0 ]; then
    chown -R 65534:65534 "$SWAY_DIR/runtime"
    # The parent directory stays root's; 65534 only needs to pass through it.
    chmod 711 "$SWAY_DIR"
    run_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
  fi
  env -u WAYLAND_DISPLAY -u SWAYSOCK -u DISPLAY -u I3SOCK \
    XDG_RUNTIME_DIR="$SWAY_DIR/runtime" HOME="$SWAY_DIR/runtime" \
    WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    $run_as sway -c "$SWAY_DIR/runtime/config" > "$SWAY_DIR/sway.log" 2>&1 &
  SWAY_PID=$!
  local socket="" tries=0
  while [ -z "$socket" ]; do
    if ! kill -0 "$SWAY_PID" 2>/dev/null; then
      echo "headless sway exited; its log:" >&2
      tail -20 "$SWAY_DIR/sway.log" >&2
      return 1
    fi
    tries=$((tries + 1))
    if [ "$tries" -gt 150 ]; then
      echo "headless sway made no Wayland socket in 15 s" >&2
      return 1
    fi
    sleep 0.1
    for candidate in "$SWAY_DIR"/runtime/wayland-*; do
      case "$candidate" in *.lock | *"*") ;; *) [ -S "$candidate" ] && socket=$candidate ;; esac
    done
  done
  export WAYLAND_DISPLAY="$socket"
  # wl-toast's socket directory: private to this run, whatever else runs here.
  export XDG_RUNTIME_DIR="$SWAY_DIR/client"
}

stop_sway() {
  if [ -n "$SWAY_PID" ]; then
    kill "$SWAY_PID" 2>/dev/null || true
    wait "$SWAY_PID" 2>/dev/null || true
    SWAY_PID=""
  fi
  if [ -n "$SWAY_DIR" ]; then
    rm -rf "$SWAY_DIR"
    SWAY_DIR=""
  fi
}
