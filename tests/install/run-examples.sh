#!/bin/sh
# examples/ as a user runs them: installed into a scratch root, the C one built with
# pkg-config, the Python ones on the installed package. Coulomb on the scene's slope
# (tan gamma = 0.45, scenes/incline_stick.xml): mu 0.3 and 0.4 slide, 0.5 and 0.6 stick.
# Args: BUILD_DIR SOURCE_DIR CC [CFLAGS for the sanitizers].
set -eu
build=$1 src=$2 cc=$3 san=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
meson install -C "$build" --destdir "$root" --no-rebuild --quiet >/dev/null
pc=$(find "$root" -name conesim.pc)
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
libdir=$(dirname "$(dirname "$pc")")


check() { # the sweep's output on stdin
  out=$(cat)
  printf '%s\n' "$out"
  for want in "mu 0.30 slide" "mu 0.40 slide" "mu 0.50 stick" "mu 0.60 stick"; do
    printf '%s\n' "$out" | grep -q "^$want " || { echo "expected: $want" >&2; exit 1; }
  done
}

# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $san $(pkg-config --cflags conesim) \
  "$src/examples/friction_sweep.c" -o "$tmp/friction_sweep" $(pkg-config --libs conesim) -lm
LD_LIBRARY_PATH=$libdir "$tmp/friction_sweep" | check

pkgdir=$(find "$root" -type d -name conesim \( -path '*/dist-packages/*' -o -path '*/site-packages/*' \) | head -n 1)
if [ -n "$san" ] || [ -z "$pkgdir" ] || ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "python example skipped (sanitizer build, or no python3 with numpy)"
  exit 0
fi
PYTHONPATH=$(dirname "$pkgdir") CONESIM_LIBRARY=$libdir/libconesim.so.0 \
  /usr/bin/python3 "$src/examples/friction_sweep.py" | check
# Python from the scene's first keyframe reproduces `conesim run` (which starts there) bit for bit
PYTHONPATH=$(dirname "$pkgdir") CONESIM_LIBRARY=$libdir/libconesim.so.0 LD_LIBRARY_PATH=$libdir \
  /usr/bin/python3 "$src/examples/keyframe_parity.py" --conesim "$(find "$root" -path '*/bin/conesim')" \
  "$src/scenes/ball_roll.xml"
# The sweep's video through the installed libconesim_render (a build with the viewer), with no
# display: EGL. Skipped when the build has no render library or no GL context can be had.
if [ -e "$libdir/libconesim_render.so.0" ]; then
  if out=$(PYTHONPATH=$(dirname "$pkgdir") CONESIM_LIBRARY=$libdir/libconesim.so.0 \
      CONESIM_RENDER_LIBRARY=$libdir/libconesim_render.so.0 LD_LIBRARY_PATH=$libdir DISPLAY= \
      /usr/bin/python3 "$src/examples/friction_sweep_video.py" "$tmp/sweep.mp4" 2>&1); then
    printf '%s\n' "$out" | check
    printf '%s\n' "$out" | grep -q "sweep.mp4: 45 frames" || { echo "expected 45 frames" >&2; exit 1; }
    [ -s "$tmp/sweep.mp4" ] || { echo "no video written" >&2; exit 1; }
  elif printf '%s\n' "$out" | grep -q "conesim.Renderer: "; then
    echo "video example skipped (no GL context): $out"
  else
    printf '%s\n' "$out" >&2
    exit 1
  fi
fi
