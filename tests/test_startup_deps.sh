#!/bin/sh
# conesim loads none of the viewer's or the video's libraries (GL, EGL, GLFW, epoxy, X11,
# FFmpeg, libpng): only conesim-view links them, so every other command starts as fast as a
# plain C program. ldd lists what the loader would load, indirect ones included.
# Usage: test_startup_deps.sh CONESIM [CONESIM_VIEW]
set -eu
conesim=$1
view=${2:-}
command -v ldd >/dev/null 2>&1 || { echo "skip: no ldd" >&2; exit 77; }
libs=$(ldd "$conesim")
echo "$conesim: $(printf '%s\n' "$libs" | wc -l) shared libraries"
bad=$(printf '%s\n' "$libs" |
  grep -E 'lib(avcodec|avformat|avutil|swscale|swresample|GL|GLX|GLdispatch|EGL|OpenGL|glfw|epoxy|X11|xcb|png)[.-]' ||
  true)
if [ -n "$bad" ]; then
  printf 'conesim loads the viewer'"'"'s libraries:\n%s\n' "$bad" >&2
  exit 1
fi
# the viewer program does link them (a build with the viewer): this test looks at the right
# names
if [ -n "$view" ]; then
  ldd "$view" | grep -q 'libglfw' || { echo "$view: no libglfw: the names above are stale" >&2; exit 1; }
fi
echo "no GL, EGL, GLFW, epoxy, X11, FFmpeg or libpng library in conesim"
