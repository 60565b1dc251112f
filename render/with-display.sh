#!/bin/sh
# Runs "$@" with an X display: the current one if DISPLAY is set, else under
# `xvfb-run -a` (24-bit screen: GLX needs a true-colour visual). Exits 77 (meson's
# "skipped") when neither can be had, including when Xvfb itself fails to start.
# Usage: with-display.sh XVFB_RUN_PATH|"" PROGRAM [ARGS...]
xvfb=$1
shift
if [ -n "$DISPLAY" ]; then
  exec "$@"
fi
if [ -z "$xvfb" ] || [ ! -x "$xvfb" ] || ! command -v Xvfb >/dev/null 2>&1 ||
   ! command -v xauth >/dev/null 2>&1; then
  echo "skip: no DISPLAY, and no xvfb-run/Xvfb/xauth" >&2
  exit 77
fi
# A marker tells "the program ran and failed" from "Xvfb never started".
marker=$(mktemp) || exit 1
rm -f "$marker"
"$xvfb" -a -s "-screen 0 1280x1024x24" sh -c 'touch "$0" && exec "$@"' "$marker" "$@"
rc=$?
if [ ! -e "$marker" ]; then
  echo "skip: Xvfb did not start (xvfb-run exit $rc)" >&2
  exit 77
fi
rm -f "$marker"
exit $rc
