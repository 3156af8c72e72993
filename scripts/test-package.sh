#!/bin/sh
# scripts/test-package.sh VERSION OUT RIG: `make test-package`. The package and
# the tarball in OUT, installed in a clean Debian 12 root made for the test
# (mmdebstrap, minbase: no Swift toolchain, no -dev package) and used there:
# --version, --render-png against the build machine's picture, a toast on the
# tests' headless sway (reached through its socket, bound into the root), the
# manual page, the bash completion, and a purge that leaves nothing behind;
# then the tarball's install.sh into a DESTDIR. RIG is the tests' wl-toast-rig
# (a debug build). Must run as root (chroot, mounts).
set -eu
version=$1 out=$2 rig=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
deb="$out/wl-toast_${version}_amd64.deb"
tarball="$out/wl-toast-$version-x86_64-linux.tar.gz"
start=$(date +%s)
root=$(mktemp -d /tmp/wl-toast-package-root.XXXXXX)
mounted=""
fail() {
  echo "test-package: $*" >&2
  exit 1
}
cleanup() {
  [ -n "${RIG_PID:-}" ] && stop_rig
  for point in $mounted; do umount "$point" 2> /dev/null || umount -l "$point"; done
  rm -rf "$root"
}
trap cleanup EXIT INT TERM
inside() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }

echo "test-package: a clean Debian 12 root (mmdebstrap --variant=minbase bookworm)"
# man-db, bash-completion and one font to check with; nothing of a build.
mmdebstrap --quiet --variant=minbase --include=man-db,bash-completion,fonts-dejavu-core \
  bookworm "$root" > "$out/test-package-mmdebstrap.log" 2>&1 \
  || fail "mmdebstrap failed: $out/test-package-mmdebstrap.log"
mount -t proc proc "$root/proc" && mounted="$root/proc $mounted"
mount --bind /dev "$root/dev" && mounted="$root/dev $mounted"
inside dpkg-query -W -f '${Package}\n' > "$out/test-package-before.txt"
grep -q -- '-dev$' "$out/test-package-before.txt" && fail "the root has -dev packages"
inside sh -c 'command -v swift swiftc' > /dev/null 2>&1 && fail "the root has a Swift toolchain"

echo "test-package: apt-get install ./$(basename "$deb")"
# The directories before it, to tell the ones the package made from those it shares.
(cd "$root" && find . -xdev -type d | sed 's|^\.||' | sort) > "$out/test-package-dirs-before.txt"
cp "$deb" "$tarball" "$root/tmp/"
inside apt-get update -q > "$out/test-package-apt.log" 2>&1 || fail "apt-get update failed"
inside apt-get install -y -q "/tmp/$(basename "$deb")" >> "$out/test-package-apt.log" 2>&1 \
  || fail "apt-get install failed: $out/test-package-apt.log"
inside dpkg-query -W -f '${Package}\n' > "$out/test-package-after.txt"
pulled=$(comm -13 "$out/test-package-before.txt" "$out/test-package-after.txt" | grep -v '^wl-toast$' || true)
echo "$pulled" | grep -- '-dev$' && fail "the package pulled -dev packages"
echo "test-package: it pulled $(echo "$pulled" | wc -l) packages:" $pulled

echo "test-package: wl-toast --version"
[ "$(inside wl-toast --version)" = "wl-toast $version" ] || fail "wl-toast --version: $(inside wl-toast --version)"

echo "test-package: --render-png, the same picture as the build machine's"
cat > "$root/tmp/fonts.conf" << 'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>/tmp/fontconfig-cache</cachedir>
</fontconfig>
EOF
inside env FONTCONFIG_FILE=/tmp/fonts.conf wl-toast --render-png /tmp/inside.png --scale 2 \
  --progress 40 "Packaged" || fail "--render-png in the root failed"
sed "s|/tmp/fontconfig-cache|$root/tmp/host-fontconfig-cache|; s|/usr/share/fonts/truetype/dejavu|$root/usr/share/fonts/truetype/dejavu|" \
  "$root/tmp/fonts.conf" > "$root/tmp/host-fonts.conf"
FONTCONFIG_FILE="$root/tmp/host-fonts.conf" "$out/deb-build/debian/wl-toast/usr/bin/wl-toast" \
  --render-png "$root/tmp/host.png" --scale 2 --progress 40 "Packaged" \
  || fail "--render-png on the build machine failed"
cmp -s "$root/tmp/inside.png" "$root/tmp/host.png" || fail "the pictures differ"

echo "test-package: a toast on the tests' headless sway"
[ -x "$rig" ] || fail "no $rig"
. "$repo/scripts/rig.sh"
start_rig "$rig"
# The sway's socket directory, at the same path inside the root.
mkdir -p "$root$(dirname "$WAYLAND_DISPLAY")"
mount --bind "$(dirname "$WAYLAND_DISPLAY")" "$root$(dirname "$WAYLAND_DISPLAY")"
mounted="$root$(dirname "$WAYLAND_DISPLAY") $mounted"
mkdir -p "$root/run/user/0" && chmod 700 "$root/run/user/0"
shown() {
  inside env WAYLAND_DISPLAY="$WAYLAND_DISPLAY" XDG_RUNTIME_DIR=/run/user/0 \
    FONTCONFIG_FILE=/tmp/fonts.conf wl-toast "$@"
}
shown --tag package --no-animation --timeout 0 "Packaged" || fail "the toast was not shown"
# The HUD's box colour, its translucent grey over the rig's desktop (#204080),
# in a screenshot of where the box goes.
has_box() {
  grim -g "560,300 160x120" -t ppm - 2> /dev/null | python3 -c '
import sys
data = sys.stdin.buffer.read()
# The header, P6 WIDTH HEIGHT 255, then one white-space byte (pixels may start with one).
end, tokens = 0, 0
while tokens < 4:
    while data[end:end + 1].isspace():
        end += 1
    while not data[end:end + 1].isspace():
        end += 1
    tokens += 1
pixels = data[end + 1:]
found = any(abs(pixels[i] - 22) <= 3 and abs(pixels[i + 1] - 38) <= 3 and abs(pixels[i + 2] - 70) <= 3
            for i in range(0, len(pixels) - 2, 3))
sys.exit(0 if found else 1)'
}
tries=0
until has_box; do
  tries=$((tries + 1))
  [ "$tries" -lt 50 ] || fail "no HUD on the screenshot"
  sleep 0.1
done
shown hide --tag package
stop_rig
RIG_PID=""

echo "test-package: man wl-toast, the bash completion"
inside man -P cat wl-toast 2> /dev/null | grep -q "wl-toast nag" || fail "man wl-toast"
inside man -P cat wl-toast-nag 2> /dev/null | grep -q "swaynag_command" || fail "man wl-toast-nag"
completion=$(inside bash -c '. /usr/share/bash-completion/bash_completion; . /usr/share/bash-completion/completions/wl-toast; COMP_WORDS=(wl-toast --sty); COMP_CWORD=1; _wl_toast; echo "${COMPREPLY[*]}"')
[ "$completion" = "--style" ] || fail "the bash completion offered '$completion'"

echo "test-package: apt-get remove --purge leaves no file behind"
inside dpkg -L wl-toast > "$out/test-package-files.txt"
inside apt-get remove --purge -y -q wl-toast >> "$out/test-package-apt.log" 2>&1 || fail "purge failed"
# Every file and link goes, and every directory the package made, unless a
# package still installed owns it too.
while read -r path; do
  [ "$path" = "/." ] && continue
  if [ -f "$root$path" ] || [ -L "$root$path" ]; then fail "left behind: $path"; fi
  if [ -d "$root$path" ] && ! grep -qxF "$path" "$out/test-package-dirs-before.txt" \
    && ! inside dpkg-query -S "$path" > /dev/null 2>&1; then
    fail "left behind: the directory $path"
  fi
done < "$out/test-package-files.txt"

echo "test-package: the tarball's install.sh into a DESTDIR"
inside sh -c "cd /tmp && tar xzf $(basename "$tarball") && DESTDIR=/tmp/stage PREFIX=/usr \
  sh wl-toast-$version-x86_64-linux/install.sh" > /dev/null || fail "install.sh failed"
[ "$(inside /tmp/stage/usr/bin/wl-toast --version)" = "wl-toast $version" ] || fail "the staged --version"
inside env FONTCONFIG_FILE=/tmp/fonts.conf /tmp/stage/usr/bin/wl-toast --render-png /tmp/staged.png \
  --scale 2 --progress 40 "Packaged" || fail "the staged command did not find its owner program"
cmp -s "$root/tmp/staged.png" "$root/tmp/host.png" || fail "the staged picture differs"
grep -q "ExecStart=/usr/libexec/wl-toast/wl-toast-owner activated" \
  "$root/tmp/stage/usr/lib/systemd/user/wl-toast@.service" || fail "the staged unit's path"
grep -q "ExecStart=wl-toast daemon --notifications" \
  "$root/tmp/stage/usr/lib/systemd/user/wl-toast-notifications.service" \
  || fail "the staged notification server's unit"
grep -q "ExecStart=wl-toast watch audio media backlight" \
  "$root/tmp/stage/usr/lib/systemd/user/wl-toast-watch.service" || fail "the staged watchers' unit"

# Bad input: a relative PREFIX is refused in one line, status 64, and nothing is written.
status=0
errors=$(inside sh -c "cd /tmp && DESTDIR=/tmp/bad PREFIX=usr sh wl-toast-$version-x86_64-linux/install.sh" 2>&1) \
  || status=$?
[ "$status" = 64 ] && [ "$(echo "$errors" | wc -l)" = 1 ] || fail "a relative PREFIX gave $status: $errors"
[ -e "$root/tmp/bad" ] && fail "a refused install.sh wrote files"

echo "test-package: passed in $(($(date +%s) - start)) s"
