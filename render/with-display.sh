#!/bin/sh
# Runs "$@" with an X display: the current one if DISPLAY is set, else a private Xvfb
# started here and stopped when the program ends. Exits 77 (meson's "skipped") when
# neither can be had, including when Xvfb itself fails to start.
#
# Not xvfb-run -a: its free-number search races with other tests starting at the same
# moment, and its cookie file lives in a temporary directory whose loss mid-run locks
# every later client out. Here Xvfb picks its own free display number (-displayfd,
# decided under the server's lock) and accepts local clients only (unix socket, no TCP),
# so there is no cookie file to lose. The screen is 24-bit: GLX needs a true-colour visual.
# Usage: with-display.sh XVFB_PATH|"" PROGRAM [ARGS...]
xvfb=$1
shift
if [ -n "$DISPLAY" ]; then
  exec "$@"
fi
if [ -z "$xvfb" ] || [ ! -x "$xvfb" ]; then
  echo "skip: no DISPLAY, and no Xvfb" >&2
  exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/conesim-display.XXXXXX") || exit 1
xpid=
stop() {
  if [ -n "$xpid" ]; then
    kill "$xpid" 2>/dev/null
    wait "$xpid" 2>/dev/null
  fi
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# Xvfb writes the display number into the pipe once it accepts connections; if it dies
# first, the read sees end-of-file. A busy machine can fail a start, so try three times.
num=
for try in 1 2 3; do
  rm -f "$dir/ready"
  mkfifo "$dir/ready" || exit 1
  "$xvfb" -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset \
    3>"$dir/ready" >"$dir/log" 2>&1 &
  xpid=$!
  read -r num <"$dir/ready"
  [ -n "$num" ] && break
  wait "$xpid" 2>/dev/null
  xpid=
done
if [ -z "$num" ]; then
  echo "skip: Xvfb did not start:" >&2
  tail -n 5 "$dir/log" >&2
  exit 77
fi
DISPLAY=":$num" "$@"
