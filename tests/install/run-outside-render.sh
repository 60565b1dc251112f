#!/bin/sh
# Install the build into a scratch root, then build tests/install/outside_render.c with
# nothing but `pkg-config --cflags --libs conesim-render conesim` and run it with no display
# (EGL). Exit 77 when it finds no GL context. LeakSanitizer needs no suppressions here: the
# EGL display stays initialised (render/egl.c), so Mesa's blocks stay reachable.
# Args: BUILD_DIR SOURCE_DIR CC [CFLAGS for the sanitizers].
set -eu
build=$1 src=$2 cc=$3 san=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
meson install -C "$build" --destdir "$root" --no-rebuild --quiet >/dev/null
pc=$(find "$root" -name conesim-render.pc)
[ -n "$pc" ] || { echo "no conesim-render.pc installed" >&2; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
libdir=$(dirname "$(dirname "$pc")")
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $san "$src/tests/install/outside_render.c" \
  -o "$tmp/outside_render" $(pkg-config --cflags --libs conesim-render conesim)
rc=0
LD_LIBRARY_PATH=$libdir DISPLAY= "$tmp/outside_render" "$src/scenes/incline_slide.xml" \
  "$tmp/out.mp4" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
[ -s "$tmp/out.mp4" ] || { echo "no video written" >&2; exit 1; }
# the installed conesim finds the installed conesim-view (PREFIX/libexec): a missing scene is
# conesim-view's exit 3, where no conesim-view would be 5
conesim=$(find "$root" -path '*/bin/conesim')
rc=0
LD_LIBRARY_PATH=$libdir DISPLAY= "$conesim" view "$tmp/none.xml" 2>"$tmp/view.err" || rc=$?
[ "$rc" -eq 3 ] || { cat "$tmp/view.err" >&2; echo "installed conesim view: exit $rc, not 3" >&2; exit 1; }
echo "installed conesim view runs $(find "$root" -name conesim-view | sed "s|^$root||")"
