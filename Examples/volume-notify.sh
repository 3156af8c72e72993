#!/bin/sh
# Examples/volume-notify.sh: the volume keys' script of a dunst or mako setup,
# which works unchanged with wl-toast's notification server (wl-toast daemon
# --notifications). It changes the volume with pactl, then sends a notification
# with the level as a value bar. The x-canonical-private-synchronous hint is a
# stack tag: each call updates the one card in place instead of adding another.
#
#   volume-notify.sh up | down | mute    (no argument: only show the level)
#
# sway:  bindsym XF86AudioRaiseVolume exec /path/to/volume-notify.sh up
# river: riverctl map normal None XF86AudioRaiseVolume spawn '/path/to/volume-notify.sh up'
#
# The card stays for the server's default time (10 s with wl-toast). A rule in
# ~/.config/wl-toast/config makes this one short, since a rule's timeout wins
# over the notification's:
#   [app-name=volume]
#   timeout = 1.5
#
# Needs pactl (PulseAudio or pipewire-pulse) and notify-send (libnotify-bin).
set -eu

sink=@DEFAULT_SINK@
case ${1-} in
up) pactl set-sink-mute "$sink" 0 && pactl set-sink-volume "$sink" +5% ;;
down) pactl set-sink-volume "$sink" -5% ;;
mute) pactl set-sink-mute "$sink" toggle ;;
'') ;;
*)
    echo "usage: volume-notify.sh [up|down|mute]" >&2
    exit 64
    ;;
esac

if pactl get-sink-mute "$sink" | grep -q yes; then
    exec notify-send -a volume -u low -i audio-volume-muted-symbolic -h int:value:0 \
        -h string:x-canonical-private-synchronous:volume "Muted"
fi
v=$(pactl get-sink-volume "$sink" | grep -o '[0-9]*%' | head -n 1 | tr -d %)
exec notify-send -a volume -u low -i audio-volume-high-symbolic -h int:value:"$v" \
    -h string:x-canonical-private-synchronous:volume "Volume $v%"
