#!/bin/sh
# Examples/follow-pipeline.sh: one long-lived toast fed by a stream of events
# through wl-toast --follow=json (each line of standard input is a JSON object
# that sets text, progress, style, spinner or timeout; --follow alone takes
# each line as the text). Usage: follow-pipeline.sh volume|windows
# Needs pactl for "volume", swaymsg and jq for "windows".
set -eu

# A HUD with a bar whenever the volume or mute state of the default sink
# changes; pactl reports many changes more than once, so repeats are dropped.
volume() {
    pactl subscribe | grep --line-buffered "'change' on sink" | {
        last=
        while read -r _; do
            if pactl get-sink-mute @DEFAULT_SINK@ | grep -q yes; then
                line='{"text":"Muted","progress":0,"timeout":1.5}'
            else
                v=$(pactl get-sink-volume @DEFAULT_SINK@ | grep -o '[0-9]*%' | head -n 1 | tr -d %)
                line="{\"text\":\"Volume $v%\",\"progress\":$v,\"timeout\":1.5}"
            fi
            [ "$line" = "$last" ] && continue
            last=$line
            printf '%s\n' "$line"
        done
    } | wl-toast --follow=json --tag volume --progress 0
}

# A banner with the title of the focused window in sway, as it changes. jq
# writes each title as a JSON object; the title is only ever text, and a JSON
# line can set no input mode, so no window can take over the screen.
windows() {
    swaymsg -t subscribe -m '["window"]' |
        jq --unbuffered -c '
            select(.change == "focus" or (.change == "title" and .container.focused))
            | {text: (.container.name // .container.app_id // ""), timeout: 2}
            | select(.text != "")' |
        wl-toast --follow=json --tag window --style banner
}

case "${1:-}" in
volume) volume ;;
windows) windows ;;
*)
    echo "usage: $0 volume|windows" >&2
    exit 64
    ;;
esac
