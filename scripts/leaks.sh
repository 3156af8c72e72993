#!/bin/bash
# make leaks: the owner under valgrind --leak-check=full through many updates of
# one toast, on a headless sway of its own.
#
#   scripts/leaks.sh BIN-DIR [UPDATES]
#
# BIN-DIR holds the built wl-toast and wl-toast-owner. wl-toast starts the
# wl-toast-owner beside itself, so a copy of wl-toast goes into a directory
# whose wl-toast-owner is a script that execs valgrind on the real one. The
# commands send UPDATES (default 10000) `--tag t --progress N` updates, then
# `hide`; the owner leaves after its linger and valgrind writes its report to
# out/leaks/valgrind.log. Exits 1 when valgrind reports a memory error or
# definitely or indirectly lost bytes that scripts/valgrind.supp does not
# explain, or when more than LEAK_SUPPRESSED_LIMIT bytes (default 65536) match
# those suppressions.
set -euo pipefail

bin=$(cd "$1" && pwd)
updates=${2:-10000}
suppressed_limit=${LEAK_SUPPRESSED_LIMIT:-65536}
repository=$(cd "$(dirname "$0")/.." && pwd)
out="$repository/out/leaks"
# shellcheck source=scripts/headless-sway.sh
. "$repository/scripts/headless-sway.sh"

rm -rf "$out"
mkdir -p "$out"
trap stop_sway EXIT
start_sway

programs="$SWAY_DIR/programs"
mkdir "$programs"
cp "$bin/wl-toast" "$programs/wl-toast"
# Valgrind 3.19 (Debian 12) cannot read the toolchain's DWARF 5: the owner it runs
# keeps its symbol table (function names in the report) but not its debug info.
mkdir "$programs/real"
objcopy --strip-debug "$bin/wl-toast-owner" "$programs/real/wl-toast-owner"
cat > "$programs/wl-toast-owner" <<EOF
#!/bin/sh
exec valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \\
  --errors-for-leak-kinds=definite,indirect --num-callers=40 \\
  --suppressions="$repository/scripts/valgrind.supp" \\
  --log-file="$out/valgrind.log" "$programs/real/wl-toast-owner" "\$@"
EOF
chmod 755 "$programs/wl-toast-owner"
toast="$programs/wl-toast"

export FONTCONFIG_FILE="$repository/Tests/Fonts/fonts.conf" LC_ALL=C.UTF-8

echo "leaks: $updates updates of one toast, the owner under valgrind"
started=$(date +%s)
# The first command starts the owner (under valgrind: seconds, not milliseconds).
"$toast" --tag t --timeout 0 --progress 0 "Update 0 of $updates"
owner=$("$toast" status --tag t | jq -r .owner)
for ((i = 1; i <= updates; i++)); do
  "$toast" --tag t --timeout 0 --progress $((i % 101)) "Update $i of $updates"
  if ((i % 1000 == 0)); then
    echo "  $i updates, $(($(date +%s) - started)) s, owner RSS $(awk '/VmRSS/ {print $2, $3}' "/proc/$owner/status")"
  fi
done
surfaces=$("$toast" status --tag t | jq -r .surfaces)
"$toast" hide --tag t
# The owner leaves one linger (1 s) after its last toast; valgrind then checks.
for ((tries = 0; tries < 600; tries++)); do
  kill -0 "$owner" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$owner" 2>/dev/null; then
  echo "leaks: the owner (pid $owner) did not leave within 60 s of hide" >&2
  exit 1
fi
echo "leaks: done in $(($(date +%s) - started)) s; the owner created $surfaces surface(s)"

# The summary; the loss records (definite, indirect, possible) are in the log.
sed 's/^==[0-9]*== *//' "$out/valgrind.log" \
  | grep -E '^(in use at exit|total heap usage|definitely lost|indirectly lost|possibly lost|still reachable|suppressed):' \
  | sed 's/^/  /'

lost() {
  sed -n "s/.* $1: \([0-9,]*\) bytes.*/\1/p" "$out/valgrind.log" | tr -d , | tail -1
}
definite=$(lost "definitely lost")
indirect=$(lost "indirectly lost")
suppressed=$(lost suppressed)
suppressed=${suppressed:-0}
# Leak records count as errors (--errors-for-leak-kinds), as do invalid reads and
# writes, uses of uninitialised values and bad frees.
errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$out/valgrind.log" | tr -d , | tail -1)
if [ -z "$definite" ] && grep -q "All heap blocks were freed" "$out/valgrind.log"; then
  definite=0 indirect=0 suppressed=0
fi
if [ -z "$definite" ]; then
  echo "leaks: no leak summary in $out/valgrind.log" >&2
  exit 1
fi
echo "leaks: definitely lost $definite bytes, indirectly lost $indirect bytes;" \
  "$suppressed bytes suppressed as fontconfig's (report: $out/valgrind.log)"
if [ "$definite" != 0 ] || [ "$indirect" != 0 ] || [ "${errors:-1}" != 0 ]; then
  echo "leaks: valgrind reported ${errors:-unknown} error(s) (lost memory or memory errors);" \
    "see $out/valgrind.log" >&2
  exit 1
fi
if [ "$suppressed" -gt "$suppressed_limit" ]; then
  echo "leaks: $suppressed bytes matched the fontconfig suppressions, more than" \
    "$suppressed_limit: something keeps making patterns" >&2
  exit 1
fi
