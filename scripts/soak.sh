#!/bin/bash
# make soak: one owner driven for SECONDS (default 600) by random commands on a
# headless sway of its own, its memory, descriptors and threads sampled every second.
#
#   scripts/soak.sh BIN-DIR [SECONDS]
#
# BIN-DIR holds the built wl-toast, wl-toast-owner and wl-toast-rig (which starts
# the headless sway, as the tests start theirs).
#
# Three drivers send, with small random delays, updates of a few tags (HUD and
# banner, progress, spinner, markup, CJK and emoji text), hides (some with
# --after), status questions, --wait commands (some replaced by a newer toast with
# their tag) and --follow streams of plain and JSON lines. A sticky toast keeps the
# one owner alive throughout. The owner's VmRSS, open descriptors and threads go to
# out/soak/owner.csv every second.
#
# At the end it compares the first minute after a warm-up (the first minute) with
# the last minute: RSS (mean) may grow by at most SOAK_RSS_LIMIT_KIB (default
# 1024), open descriptors (fewest seen, i.e. between clients) not at all; any
# command that fails, or an owner that dies, fails the soak.
set -euo pipefail

bin=$(cd "$1" && pwd)
duration=${2:-600}
rss_limit=${SOAK_RSS_LIMIT_KIB:-1024}
repository=$(cd "$(dirname "$0")/.." && pwd)
out="$repository/out/soak"
# shellcheck source=scripts/rig.sh
. "$repository/scripts/rig.sh"

toast="$bin/wl-toast"
export FONTCONFIG_FILE="$repository/Tests/Fonts/fonts.conf" LC_ALL=C.UTF-8

rm -rf "$out"
mkdir -p "$out"
csv="$out/owner.csv"
failures="$out/failures.log"
: > "$failures"

children=()
cleanup() {
  for pid in "${children[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${children[@]}"; do wait "$pid" 2> /dev/null || true; done
  stop_rig
}
trap cleanup EXIT
start_rig "$bin/wl-toast-rig"

# One command: a status other than those listed (0 unless given) is a failure,
# logged with the command and its standard error. No command may take 30 s.
run() {
  local allowed=$1
  shift
  local status=0 errors kind=show
  case " $* " in
    " hide "* | " status "*) kind=$1 ;;
    *" --follow "* | *" --follow=json "*) kind=follow ;;
    *" --wait "*) kind=wait ;;
  esac
  echo "$kind" >> "$out/commands.log"
  errors=$(timeout 30 "$toast" "$@" 2>&1 > /dev/null) || status=$?
  case " $allowed " in
    *" $status "*) ;;
    *) printf 'exit %s: wl-toast %s\n%s\n' "$status" "$*" "$errors" >> "$failures" ;;
  esac
}

pause() { sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"; }

texts=(
  "Volume" "Saved" "Copied to clipboard" "Recording…" "<b>Bold</b> and <i>italic</i>"
  "音量 50%" "保存しました" "🔋 Battery low" "A longer message that wraps over more than one line of the HUD and then some more words so that it needs an ellipsis at the end"
)

update() {
  local tag=$1 text=${texts[RANDOM % ${#texts[@]}]}
  local arguments=(--tag "$tag" --linger 60)
  if ((RANDOM % 2)); then arguments+=(--style banner); fi
  if ((RANDOM % 2)); then arguments+=(--progress $((RANDOM % 101))); fi
  if ((RANDOM % 4 == 0)); then arguments+=(--spinner); fi
  if ((RANDOM % 3 == 0)); then arguments+=(--no-animation); fi
  case "$text" in "<"*) arguments+=(--markup) ;; esac
  arguments+=(--timeout "$((RANDOM % 3)).$((RANDOM % 10))")
  run 0 "${arguments[@]}" "$text $RANDOM"
}

follow() {
  local tag=$1 lines=$((1 + RANDOM % 20)) json=$((RANDOM % 2))
  local arguments=(--follow --tag "$1" --linger 60)
  if ((json)); then arguments=(--follow=json --tag "$1" --linger 60); fi
  if ((RANDOM % 3 == 0)); then arguments+=(--wait --timeout 0.5); fi
  {
    for ((line = 0; line < lines; line++)); do
      if ((json)); then
        printf '{"text": "Step %d of %d", "progress": %d}\n' "$line" "$lines" $((line * 100 / lines))
      else
        printf 'Line %d of %d\n' "$line" "$lines"
      fi
      pause
    done
  } | run "0 3" "${arguments[@]}" || true
}

drive() {
  local deadline=$1 tags=(volume mode job clip) tag
  while (($(date +%s) < deadline)); do
    tag=${tags[RANDOM % ${#tags[@]}]}
    case $((RANDOM % 12)) in
      0 | 1 | 2 | 3 | 4) update "$tag" ;;
      5) run 0 hide --tag "$tag" ;;
      6) run 0 hide --tag "$tag" --after "0.$((RANDOM % 10))" ;;
      7) run "0 1" status --tag "$tag" ;;
      # --wait: the toast expires (0), or a newer toast with its tag replaces it (3).
      8) run "0 3" --wait --tag "$tag" --linger 60 --timeout 0.3 "Waiting $RANDOM" ;;
      9) run "0 3" --wait --print-outcome --tag "wait-$RANDOM" --linger 60 --timeout 0.2 "Alone" ;;
      10 | 11) follow "$tag" ;;
    esac
    pause
  done
}

# The sticky toast starts the owner and keeps it for the whole soak.
run 0 --tag soak --timeout 0 --linger 60 --style banner "Soak"
owner=$("$toast" status --tag soak | jq -r .owner)
echo "soak: $duration s against owner $owner (sway $WAYLAND_DISPLAY); samples in $csv"

started=$(date +%s)
deadline=$((started + duration))

sample() {
  local elapsed=$1 rss threads fds
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$owner/status" 2> /dev/null) || return 1
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$owner/status" 2> /dev/null) || return 1
  fds=$(find "/proc/$owner/fd" -mindepth 1 -maxdepth 1 2> /dev/null | wc -l)
  [ -n "$rss" ] || return 1
  echo "$elapsed,$rss,$fds,$threads" >> "$csv"
}

echo "seconds,rss_kib,fds,threads" > "$csv"
(
  while (($(date +%s) < deadline)); do
    sample $(($(date +%s) - started)) || { echo "soak: the owner is gone" >> "$failures"; exit; }
    sleep 1
  done
) &
children+=($!)
for driver in 1 2 3; do
  drive "$deadline" &
  children+=($!)
done
for pid in "${children[@]}"; do wait "$pid"; done
children=()

# Quiet: every command has ended; one more sample with no client connected.
sleep 2
kill -0 "$owner" 2> /dev/null || echo "soak: the owner is gone at the end" >> "$failures"
sample "$duration" || true
commands_failed=$(grep -c '^exit' "$failures" || true)
echo "soak: commands sent: $(sort "$out/commands.log" | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep = ", "}')" \
  | tee "$out/summary.txt"

kill -TERM "$owner" 2> /dev/null || true

awk -F, -v duration="$duration" -v rss_limit="$rss_limit" -v failed="$commands_failed" '
  NR == 1 { next }
  {
    t[NR] = $1; rss[NR] = $2; fds[NR] = $3; threads[NR] = $4; n = NR
  }
  END {
    warmup = duration / 5 < 60 ? int(duration / 5) : 60
    window = (duration - warmup) / 2 < 60 ? int((duration - warmup) / 2) : 60
    for (i = 2; i <= n; i++) {
      if (t[i] >= warmup && t[i] < warmup + window) {
        firstSum += rss[i]; firstCount++
        if (firstFds == "" || fds[i] < firstFds) firstFds = fds[i]
        if (firstThreads == "" || threads[i] > firstThreads) firstThreads = threads[i]
      }
      if (t[i] > duration - window) {
        lastSum += rss[i]; lastCount++
        if (lastFds == "" || fds[i] < lastFds) lastFds = fds[i]
        if (lastThreads == "" || threads[i] > lastThreads) lastThreads = threads[i]
      }
      if (maxFds == "" || fds[i] > maxFds) maxFds = fds[i]
      if (maxRss == "" || rss[i] > maxRss) maxRss = rss[i]
    }
    if (!firstCount || !lastCount) { print "soak: too few samples"; exit 1 }
    first = firstSum / firstCount; last = lastSum / lastCount
    printf "soak: %d samples; warm-up %d s, windows of %d s\n", n - 1, warmup, window
    printf "  RSS      first window %.0f KiB, last window %.0f KiB: growth %+.0f KiB (limit %d); peak %d KiB\n", \
      first, last, last - first, rss_limit, maxRss
    printf "  fds      first window %d, last window %d (fewest seen): growth %+d; most seen %d\n", \
      firstFds, lastFds, lastFds - firstFds, maxFds
    printf "  threads  first window %d, last window %d (most seen)\n", firstThreads, lastThreads
    printf "  failed commands: %d\n", failed
    bad = 0
    if (last - first > rss_limit) { print "soak: RSS grew by more than " rss_limit " KiB"; bad = 1 }
    if (lastFds > firstFds) { print "soak: open descriptors grew"; bad = 1 }
    exit bad
  }' "$csv" | tee -a "$out/summary.txt"
status=${PIPESTATUS[0]}
if [ -s "$failures" ]; then
  echo "soak: failures (first lines of $failures):"
  head -20 "$failures"
  status=1
fi
exit "$status"
