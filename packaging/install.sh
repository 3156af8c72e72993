#!/bin/sh
# install.sh: installs this release of wl-toast under PREFIX (default
# /usr/local), inside DESTDIR when it is set (a staging root).
#
#   ./install.sh
#   PREFIX=/usr ./install.sh
#   DESTDIR=/tmp/stage PREFIX=/usr ./install.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-/usr/local}
dest=${DESTDIR:-}
case $prefix in
/*) ;;
*) echo "install.sh: PREFIX must be an absolute path, got '$prefix'" >&2; exit 64 ;;
esac
for file in bin/wl-toast libexec/wl-toast/wl-toast-owner; do
  [ -x "$here/$file" ] || { echo "install.sh: $here/$file is missing" >&2; exit 1; }
done
copy() { install -D -m "$1" "$here/$2" "$dest$prefix/$2"; }
copy 755 bin/wl-toast
copy 755 libexec/wl-toast/wl-toast-owner
# Each file with the mode it has here: executable examples stay executable.
(cd "$here" && find share lib -type f ! -name 'wl-toast@.service') | while read -r file; do
  if [ -x "$here/$file" ]; then copy 755 "$file"; else copy 644 "$file"; fi
done
mkdir -p "$dest$prefix/lib/systemd/user"
sed "s|@OWNER@|$prefix/libexec/wl-toast/wl-toast-owner|" \
  "$here/lib/systemd/user/wl-toast@.service" > "$dest$prefix/lib/systemd/user/wl-toast@.service"
chmod 644 "$dest$prefix/lib/systemd/user/wl-toast@.service"
echo "wl-toast installed in $dest$prefix"
