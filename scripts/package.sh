#!/bin/sh
# scripts/package.sh deb|dist BIN VERSION OUT: the Debian package
# (OUT/wl-toast_VERSION_amd64.deb) or the release tarball
# (OUT/wl-toast-VERSION-x86_64-linux.tar.gz) of the release build in BIN, with
# Debian's own tools (dpkg-shlibdeps, dpkg-gencontrol, dpkg-deb). `make deb` and
# `make dist` run it.
set -eu
kind=$1 bin=$2 version=$3 out=$4
repo=$(cd "$(dirname "$0")/.." && pwd)
work="$out/$kind-build"
rm -rf "$work"
mkdir -p "$work/debian"

# The files, under $1, for the prefix $2 (as the programs will find them) and
# the zsh completion directory $3.
stage() {
  dest=$1 prefix=$2 zsh=$3
  install -D -m 755 "$bin/wl-toast" "$dest$prefix/bin/wl-toast"
  install -D -m 755 "$bin/wl-toast-owner" "$dest$prefix/libexec/wl-toast/wl-toast-owner"
  # No symbols: the Swift runtime is linked in, and the installed programs are
  # as small as they can be (the sizes: BENCHMARKS.md).
  strip --strip-unneeded --remove-section=.comment --remove-section=.note \
    "$dest$prefix/bin/wl-toast" "$dest$prefix/libexec/wl-toast/wl-toast-owner"
  for page in wl-toast.1 wl-toast-nag.1 wl-toast.5; do
    section=${page##*.}
    install -D -m 644 "$repo/man/$page" "$dest$prefix/share/man/man$section/$page"
    gzip -9n "$dest$prefix/share/man/man$section/$page"
  done
  mkdir -p "$dest$prefix/share/bash-completion/completions" "$dest$zsh" \
    "$dest$prefix/share/fish/vendor_completions.d"
  "$bin/wl-toast" completions bash > "$dest$prefix/share/bash-completion/completions/wl-toast"
  "$bin/wl-toast" completions zsh > "$dest$zsh/_wl-toast"
  "$bin/wl-toast" completions fish > "$dest$prefix/share/fish/vendor_completions.d/wl-toast.fish"
  install -D -m 644 "$repo/systemd/wl-toast@.socket" "$dest$prefix/lib/systemd/user/wl-toast@.socket"
  install -D -m 644 "$repo/systemd/wl-toast@.service" "$dest$prefix/lib/systemd/user/wl-toast@.service"
  install -D -m 644 "$repo/systemd/wl-toast-notifications.service" \
    "$dest$prefix/lib/systemd/user/wl-toast-notifications.service"
  install -D -m 644 "$repo/systemd/wl-toast-watch.service" \
    "$dest$prefix/lib/systemd/user/wl-toast-watch.service"
  mkdir -p "$dest$prefix/share/doc/wl-toast/examples"
  cp -R "$repo/Examples/." "$dest$prefix/share/doc/wl-toast/examples/"
  find "$dest$prefix/share/doc/wl-toast/examples" -type f -exec chmod 644 {} +
  chmod 755 "$dest$prefix/share/doc/wl-toast/examples/follow-pipeline.sh" 2>/dev/null || true
  chmod 755 "$dest$prefix/share/doc/wl-toast/examples/river-init" 2>/dev/null || true
  chmod 755 "$dest$prefix/share/doc/wl-toast/examples/volume-notify.sh" 2>/dev/null || true
}

# The shared libraries the programs need, as dpkg-shlibdeps finds them: the
# substitution variables file debian/substvars, in $work.
shared_libraries() {
  sed "s/@VERSION@/$version/" "$repo/packaging/debian/changelog" > "$work/debian/changelog"
  cp "$repo/packaging/debian/control" "$work/debian/control"
  (cd "$work" && dpkg-shlibdeps -Tdebian/substvars "$@" 2> debian/shlibdeps.log)
}

case $kind in
deb)
  # Where Debian's tools expect a package's files: debian/PACKAGE.
  root="$work/debian/wl-toast"
  stage "$root" /usr /usr/share/zsh/vendor-completions
  sed "s|@OWNER@|/usr/libexec/wl-toast/wl-toast-owner|" \
    "$repo/systemd/wl-toast@.service" > "$root/usr/lib/systemd/user/wl-toast@.service"
  install -D -m 644 "$repo/packaging/debian/copyright" "$root/usr/share/doc/wl-toast/copyright"
  sed "s/@VERSION@/$version/" "$repo/packaging/debian/changelog" | gzip -9n \
    > "$root/usr/share/doc/wl-toast/changelog.gz"
  # The command is static on purpose (no loader at start: half the time of a
  # dynamic one); lintian is told so in the package, as Debian's packages do.
  install -D -m 644 "$repo/packaging/debian/lintian-overrides" \
    "$root/usr/share/lintian/overrides/wl-toast"
  mkdir -p "$root/DEBIAN"
  shared_libraries debian/wl-toast/usr/bin/wl-toast \
    debian/wl-toast/usr/libexec/wl-toast/wl-toast-owner
  # The owner's relative relocations are packed (DT_RELR, Package.swift), which
  # glibc's loader reads from 2.36 on; dpkg-shlibdeps cannot tell, since the
  # version that says so (GLIBC_ABI_DT_RELR) names no symbol.
  echo "misc:Depends=libc6 (>= 2.36)" >> "$work/debian/substvars"
  (cd "$work" && dpkg-gencontrol -v"$version" -Pdebian/wl-toast -Tdebian/substvars)
  # Directories 755, files 644 or 755, whatever the umask of the build; each
  # file's checksum for debsums and dpkg --verify.
  find "$root" -type d -exec chmod 755 {} +
  find "$root/usr" -type f ! -perm -u+x -exec chmod 644 {} +
  (cd "$root" && find usr -type f -exec md5sum {} + | sort -k 2 > DEBIAN/md5sums)
  chmod 644 "$root/DEBIAN/md5sums"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$out/wl-toast_${version}_amd64.deb" > /dev/null
  echo "$out/wl-toast_${version}_amd64.deb"
  ;;
dist)
  name="wl-toast-$version-x86_64-linux"
  root="$work/$name"
  stage "$root" "" /share/zsh/site-functions
  install -m 755 "$repo/packaging/install.sh" "$root/install.sh"
  find "$root" -type d -exec chmod 755 {} +
  find "$root" -type f ! -perm -u+x -exec chmod 644 {} +
  shared_libraries "$name/bin/wl-toast" "$name/libexec/wl-toast/wl-toast-owner"
  libraries=$(sed -n 's/^shlibs:Depends=//p' "$work/debian/substvars" | tr ',' '\n' \
    | sed 's/^ *//; s/ .*//' | sort -u)
  {
    echo "wl-toast $version for x86_64 Linux: nothing to compile."
    echo
    echo "  ./install.sh                      # into /usr/local"
    echo "  PREFIX=/usr ./install.sh          # into /usr"
    echo "  DESTDIR=/tmp/stage ./install.sh   # staged, for a package"
    echo
    echo "bin/wl-toast is static; libexec/wl-toast/wl-toast-owner, which draws, needs"
    echo "these shared libraries (the Debian 12 packages that hold them, as"
    echo "dpkg-shlibdeps found them; on another system, their equivalents):"
    echo
    for package in $libraries; do echo "  $package"; done
    echo
    echo "Optional: librsvg2-2 (SVG icons) and libgdk-pixbuf-2.0-0 (JPEG images),"
    echo "each loaded when the first is drawn, and an icon theme such as"
    echo "adwaita-icon-theme; for --sound, libcanberra0 with"
    echo "libcanberra-pulse (loaded when a toast first asks for a sound) and"
    echo "sound-theme-freedesktop; for watch audio, libpulse0, and for watch"
    echo "backlight, libudev1 (each loaded when its watch starts). See 'man"
    echo "wl-toast' once installed."
  } > "$root/README"
  tar -C "$work" --owner=0 --group=0 --numeric-owner --sort=name -czf "$out/$name.tar.gz" "$name"
  echo "$out/$name.tar.gz"
  ;;
*)
  echo "usage: scripts/package.sh deb|dist BIN VERSION OUT" >&2
  exit 64
  ;;
esac
