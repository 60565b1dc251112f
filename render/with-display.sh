#!/bin/sh
# Runs "$@" with an X display: the current one if DISPLAY is set, else under
# `xvfb-run -a` (24-bit screen: GLX needs a true-colour visual); exit 77 (skip) when
# neither is available. Usage: with-display.sh XVFB_RUN_PATH|"" PROGRAM [ARGS...]
xvfb=$1
shift
if [ -n "$DISPLAY" ]; then
  exec "$@"
fi
if [ -n "$xvfb" ] && [ -x "$xvfb" ]; then
  exec "$xvfb" -a -s "-screen 0 1280x1024x24" "$@"
fi
echo "skip: no DISPLAY and no xvfb-run" >&2
exit 77
