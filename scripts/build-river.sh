#!/bin/sh
# `make river`: builds river (with riverctl and rivertile) once, from a source
# archive, into a cache directory, and prints the directory of its programs.
#
#   scripts/build-river.sh ARCHIVE CACHE
#
# ARCHIVE is river's source with its Zig libraries (river at upstream commit
# 5eb0e23, the last on wlroots 0.15, which Debian 12 ships; it unpacks into the
# current directory, without a top folder). CACHE holds one build per archive,
# named after the first 16 hex digits of its SHA-256: CACHE/river-HASH/bin has
# river, riverctl and rivertile. A second run finds them and builds nothing.
#
# Zig 0.9.1 (the version river 5eb0e23 is written for) comes from PyPI's
# ziglang package, in a virtual environment inside CACHE. Debian's packages
# libwlroots-dev, libevdev-dev, libinput-dev, libpixman-1-dev, libxkbcommon-dev,
# wayland-protocols, pkg-config and python3-venv must be installed (make
# river-deps). The build runs under $SWIFT_LOCK when set, so that builds sharing
# the machine take turns.
set -eu

archive=${1:?usage: build-river.sh ARCHIVE CACHE}
cache=${2:?usage: build-river.sh ARCHIVE CACHE}

if [ ! -f "$archive" ]; then
  echo "build-river: no river source archive at '$archive' (set RIVER_SRC to its path)" >&2
  exit 1
fi

hash=$(sha256sum "$archive" | cut -c 1-16)
target="$cache/river-$hash"
if [ -x "$target/bin/river" ] && [ -x "$target/bin/riverctl" ] && [ -x "$target/bin/rivertile" ]; then
  echo "$target/bin"
  exit 0
fi

mkdir -p "$cache"
venv="$cache/zig-0.9.1"
if [ ! -x "$venv/zig" ]; then
  echo "build-river: installing Zig 0.9.1 from PyPI (ziglang) into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv/venv" >&2
  "$venv/venv/bin/pip" install --quiet --disable-pip-version-check "ziglang==0.9.1" >&2
  package=$("$venv/venv/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')
  ln -s "$package/zig" "$venv/zig"
fi
"$venv/zig" version | grep -qx '0\.9\.1' || {
  echo "build-river: $venv/zig is not Zig 0.9.1" >&2
  exit 1
}

work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
tar -xzf "$archive" -C "$work/src"
# Under the headless backend an assertion that outputs are not headless panics
# in some river commits (upstream removed it later); drop it where present.
find "$work/src/river" -name '*.zig' -exec sed -i '/assert(!wlr_output\.isHeadless());/d' {} +

echo "build-river: building river from $archive (zig build, about a minute)" >&2
# river's build asks git for a version suffix; the archive is no repository, and
# a repository around the cache must not lend it one (git's "fatal: not a git
# repository" on standard error is that question failing, as it should).
start=$(date +%s)
(
  cd "$work/src"
  GIT_DIR="$work/no-repository" ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" \
    ZIG_LOCAL_CACHE_DIR="$work/zig-local" \
    ${SWIFT_LOCK:-} "$venv/zig" build -Drelease-safe -Dman-pages=false \
    -Dbash-completion=false -Dzsh-completion=false -Dfish-completion=false \
    --prefix "$work/install" install >&2
)
echo "build-river: built in $(($(date +%s) - start)) s" >&2
for program in river riverctl rivertile; do
  [ -x "$work/install/bin/$program" ] || {
    echo "build-river: the build made no $program" >&2
    exit 1
  }
done
rm -rf "$target"
mv "$work/install" "$target"
echo "$target/bin"
