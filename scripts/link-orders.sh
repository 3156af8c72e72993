#!/usr/bin/env bash
# scripts/link-orders.sh BIN-DIR: link/owner-order.txt and link/command-order.txt
# made again, from callgrind profiles of the release owner and command in BIN-DIR
# (wl-toast, wl-toast-owner and wl-toast-rig, which starts the tests' headless
# sway; `make link-orders`).
#
# The owner: two owners run under callgrind (--demangle=no) with the system's
# fonts, and three parts of their lives are kept apart:
#   1. an owner's start and first toast, as `make bench` runs the one whose
#      peak RSS it reads (`--no-animation --linger 0` "Saved", WAYLAND_DEBUG and
#      a log), until 1.5 s after its frame;
#   2. that toast hidden (the owner leaves), and another owner started by an
#      update command, the toast updated seven times (`--progress N`), hidden;
#   3. the second owner's toasts of other kinds: animated, banners, a spinner,
#      an icon, markup, buttons, a position, a font and colours, CJK and emoji.
#   4. the notification server (`wl-toast daemon --notifications` on a bus of
#      its own, as `make bench` runs it): cards shown, updated by replaces_id,
#      ten at once, dismissed.
# The order is the functions of the owner's own file that part 1 ran, most
# instructions first, then those only part 2 ran, then those only part 3 ran,
# then those only part 4 ran: the notification server's come last, so that a
# toast's start and updates keep their pages (put before them, they made the
# first toast about 2 ms slower in `make bench`).
#
# The command: three commands run under callgrind, to an owner that is not: an
# update of a showing toast, a first toast (which starts the owner) and
# `--version`; the order is the update's functions, most instructions first,
# then those only the first toast ran, then those only `--version` ran.
#
# Functions lld cannot move are left out of both: those of the Swift standard
# library's one large `.text` section (Swift.o in libswiftCore.a holds some 1.6
# MB of its functions in one section; naming one of them would pull that whole
# section in among the hot ones). Everything else is in a section of its own
# (Package.swift compiles with -function-sections; the runtime's C++ is built
# that way).
set -euo pipefail

bin=$(cd "$1" && pwd)
repository=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/rig.sh
. "$repository/scripts/rig.sh"

work=$(mktemp -d /tmp/wl-toast-order.XXXXXX)
trap 'stop_rig; rm -rf "$work"' EXIT
mkdir -p "$work/real" "$work/plain"
cp "$bin/wl-toast" "$work/"
# valgrind 3.19 cannot read the DWARF 5 debug information; names stay.
objcopy --strip-debug "$bin/wl-toast-owner" "$work/real/wl-toast-owner"
# The command's own runs: a stripped copy beside the owner, which runs natively.
objcopy --strip-debug "$bin/wl-toast" "$work/plain/wl-toast"
cp "$bin/wl-toast-owner" "$work/plain/"
cat > "$work/wl-toast-owner" << EOF
#!/bin/sh
exec valgrind --tool=callgrind --demangle=no --dump-instr=no \\
  --callgrind-out-file="$work/callgrind.\$WL_TOAST_ORDER_RUN" "$work/real/wl-toast-owner" "\$@"
EOF
chmod 755 "$work/wl-toast-owner"

start_rig "$bin/wl-toast-rig"
unset FONTCONFIG_FILE
export LC_ALL=C.UTF-8 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME"
toast="$work/wl-toast"

# owner_pid: the owner under valgrind.
owner_pid() { pgrep -f "valgrind.*callgrind.$WL_TOAST_ORDER_RUN $work/real/wl-toast-owner" | head -1; }

# Run a: the benchmark's first toast (its environment too: WAYLAND_DEBUG and a
# log), dumped while it shows; then hidden, and the owner leaves at once.
export WL_TOAST_ORDER_RUN=a
WAYLAND_DEBUG=1 WL_TOAST_OWNER_LOG="$work/owner.log" \
  "$toast" --tag first --no-animation --timeout 0 --linger 0 Saved
sleep 1.5
owner=$(owner_pid)
callgrind_control -d "$owner" > /dev/null
"$toast" hide --tag first
while kill -0 "$owner" 2> /dev/null; do sleep 0.2; done

# Run b: an owner started by an update's first command, seven updates, a hide,
# then toasts of other kinds.
export WL_TOAST_ORDER_RUN=b
"$toast" --tag bench --no-animation --timeout 0 --progress 1 "Volume 1%"
sleep 0.3
owner=$(owner_pid)
for n in 2 3 4 5 6 7 8; do
  "$toast" --tag bench --no-animation --timeout 0 --progress "$n" "Volume $n%"
  sleep 0.2
done
"$toast" hide --tag bench
sleep 0.5
callgrind_control -d "$owner" > /dev/null
"$toast" Saved
sleep 0.6
"$toast" --style banner "Copied to clipboard"
sleep 1
"$toast" --spinner --timeout 0 --tag spin "Backing up"
sleep 0.8
"$toast" hide --tag spin
sleep 0.5
"$toast" --icon audio-volume-high-symbolic --progress 40 --tag vol Volume
sleep 0.5
"$toast" --icon audio-volume-high-symbolic --progress 60 --tag vol Volume
sleep 0.5
"$toast" --markup --tag m "<b>Bold</b> and <i>italic</i>"
sleep 0.5
"$toast" --button Undo --button Keep --timeout 1 --tag q "Deleted 3 files"
sleep 0.5
"$toast" status --tag q > /dev/null
"$toast" hide --tag q --after 0.2
sleep 0.8
"$toast" --position bottom-right --margin 24 --style banner --tag br Saved
sleep 1
"$toast" --font "Monospace 14" --background "#202020" --foreground "#ffcc00" --tag f "Recording…"
sleep 0.5
"$toast" --tag cjk "日本語のテキスト 😀 emoji"
sleep 0.8
for tag in vol m br f cjk; do "$toast" hide --tag "$tag"; done
# The owner leaves after its linger; callgrind writes the last part at exit.
while kill -0 "$owner" 2> /dev/null; do sleep 0.2; done

# Run c: the notification server (`wl-toast daemon --notifications`) on a bus
# of its own, as `make bench` runs it: a card shown and dismissed, a card and
# its update by replaces_id, nine more cards, all dismissed; dumped before it
# is stopped.
export WL_TOAST_ORDER_RUN=c
cat > "$work/bus.conf" << EOF
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus.socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
dbus-daemon --nofork --config-file="$work/bus.conf" &
bus_pid=$!
trap 'kill "$bus_pid" 2> /dev/null || true; stop_rig; rm -rf "$work"' EXIT
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus.socket"
until [ -S "$work/bus.socket" ]; do sleep 0.1; done
"$toast" daemon --notifications 2> /dev/null &
server=$!
name_owned() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2> /dev/null \
    | grep -q 'boolean true'
}
until name_owned; do sleep 0.2; done
notify-send --expire-time=0 Welcome "Round 0"
sleep 0.8
"$toast" notifications dismiss --all
sleep 0.8
id=$(notify-send --print-id --expire-time=0 Saved "Round 1")
sleep 0.8
notify-send --replace-id="$id" --expire-time=0 "Volume 40%" "Round 1"
sleep 0.5
for n in 2 3 4 5 6 7 8 9 10; do notify-send --expire-time=0 "Message $n" "Round 1"; done
sleep 1.5
"$toast" notifications dismiss --all
sleep 0.8
callgrind_control -d "$(owner_pid)" > /dev/null
kill "$server"
while kill -0 "$server" 2> /dev/null; do sleep 0.2; done
kill "$bus_pid"
unset DBUS_SESSION_BUS_ADDRESS

# The command's runs: an update of a showing toast, a first toast, --version.
command="$work/plain/wl-toast"
profile_command() {
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --dump-instr=no \
    --callgrind-out-file="$work/command.$name" "$command" "$@" 2> /dev/null
}
"$command" --tag order --no-animation --timeout 0 --progress 1 "Volume 1%"
sleep 0.3
profile_command update --tag order --no-animation --timeout 0 --progress 2 "Volume 2%"
"$command" hide --tag order
while pgrep -f "^$work/plain/wl-toast-owner" > /dev/null; do sleep 0.2; done
profile_command first --tag order --no-animation --timeout 0 --linger 0 Saved
"$command" hide --tag order
profile_command version --version > /dev/null

# The functions of PROGRAM's file in one dump: "INSTRUCTIONS NAME" lines.
functions() {
  callgrind_annotate --threshold=100 "$2" 2> /dev/null \
    | grep -F "[$1]" \
    | sed -E 's/^ *([0-9,]+) .*  [^:]*:(.*) \[[^]]*\]$/\1 \2/; s/'\''[0-9]+$//' | tr -d ','
}
owner_functions() { functions "$work/real/wl-toast-owner" "$1"; }
owner_functions "$work/callgrind.a.1" > "$work/owner.part1"
{ owner_functions "$work/callgrind.b.1"; owner_functions "$work/callgrind.a"; } > "$work/owner.part2"
owner_functions "$work/callgrind.b" > "$work/owner.part3"
owner_functions "$work/callgrind.c.1" > "$work/owner.notifications"
: > "$work/command.notifications"
functions "$command" "$work/command.update" > "$work/command.part1"
functions "$command" "$work/command.first" > "$work/command.part2"
functions "$command" "$work/command.version" > "$work/command.part3"

# The standard library's functions in its one large .text section, as PROGRAM
# has them: where that section lies in it (the offset most of its symbols that
# PROGRAM has once agree on), and every name PROGRAM has there: lld gives a
# name's place to every symbol of that name, local ones in other files too, so
# a name that is also a local symbol there would pull the section in.
library=$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')
ar p "$library/../swift_static/linux/libswiftCore.a" Swift.o > "$work/Swift.o"
readelf -SW "$work/Swift.o" | sed 's/^ *\[ *[0-9]*\] //' | awk '$1 == ".text" { print $5 }' > "$work/size"
text=$(readelf -SW "$work/Swift.o" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p')
readelf -sW "$work/Swift.o" | awk -v text="$text" '$7 == text && $4 == "FUNC" { print $8, $2 }' \
  > "$work/library"
immovable() {
  nm --defined-only "$1" | awk '{ print $3, $1 }' > "$work/symbols"
  awk -v sizefile="$work/size" '
    function hex(s,   i, n) {
      n = 0
      for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return n
    }
    BEGIN { getline size < sizefile; size = hex(size) }
    FNR == NR { offset[$1] = hex($2); next }
    { count[$1]++; address[$1] = hex($2); all[NR] = $1 " " address[$1] }
    END {
      for (name in offset) if (count[name] == 1) votes[address[name] - offset[name]]++
      for (base in votes) if (votes[base] > most) { most = votes[base]; start = base + 0 }
      for (i in all) {
        split(all[i], f, " ")
        if (f[2] >= start && f[2] < start + size) print f[1]
      }
      # And every name the section defines: a weak one (a value witness
      # helper such as __swift_memcpy88_8) may be kept from there too.
      for (name in offset) print name
    }' "$work/library" "$work/symbols"
}

# write_order NAME PROGRAM HEADER: link/NAME-order.txt, HEADER's comment then
# the functions of parts 1, 2, 3 and 4 (the owner's only), each most instructions first, each name
# once, the immovable ones left out.
write_order() {
  local out="$repository/link/$1-order.txt"
  immovable "$2" > "$work/$1.immovable"
  {
    printf '%s\n' "$3"
    for part in part1 part2 part3 notifications; do sort -k1,1nr "$work/$1.$part" | cut -d' ' -f2; done \
      | awk -v skip="$work/$1.immovable" 'BEGIN { while ((getline s < skip) > 0) no[s] = 1 }
          !($0 in no) && !seen[$0]++'
  } > "$out.new"
  mv "$out.new" "$out"
  echo "link-orders: $(grep -vc '^#' "$out") functions in $out"
}

write_order owner "$bin/wl-toast-owner" "\
# The owner's hot functions, in lld's --symbol-ordering-file format, for the
# owner's link (Package.swift): laid out together at the start of .text, the
# code a toast runs fills fewer pages.
#
# Made by scripts/link-orders.sh (\`make link-orders\`) from callgrind's profile
# of the release owner on the tests' headless sway: the functions of the
# owner's own file that its start and a first toast ran, most instructions
# first; then those only seven updates ran; then those only other kinds of
# toast ran; then those only the notification server ran. The standard
# library's functions in its one large .text section are left out (lld cannot move them; naming one would pull all 1.6 MB of it
# in among the hot functions). Names the code no longer has are
# skipped (--no-warn-symbol-ordering): an outdated list costs pages, never a
# build."
write_order command "$bin/wl-toast" "\
# The update command's hot functions, in lld's --symbol-ordering-file format,
# for the command's static link (Package.swift): laid out together at the
# start of their sections, the code an update runs fills fewer pages.
#
# Made by scripts/link-orders.sh (\`make link-orders\`) from callgrind's profile
# of the release command on the tests' headless sway: the functions of the
# command's own file that an update of a showing toast ran, most instructions
# first; then those only a first toast ran; then those only --version ran.
# The standard library's functions in its one large .text section are left
# out (lld cannot move them; naming one would pull all 1.6 MB of it in among
# the hot functions). Names the code no longer has are skipped
# (--no-warn-symbol-ordering): an outdated list costs pages, never a build."
